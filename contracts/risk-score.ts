/**
 * The console's risk score, written once for the store that computes it, the console that
 * explains it and the tests that check it. Free of zod, for the renderer's bundle.
 *
 * An open finding weighs by its severity, each step about three times the one below, so that
 * one critical finding outweighs three high ones; a finding whose CVE is in CISA's KEV catalog
 * (exploited in the wild) weighs five times as much, so that a KEV high (150) ranks above a
 * critical nobody is known to exploit (100). The score of an endpoint, a product or a version is
 * the sum over its open findings: 0 without any, and every open finding adds to it.
 *
 * What an endpoint is worth multiplies the weight of its findings: a critical endpoint's
 * findings weigh eight times those of a low one, so the payroll server outranks a test VM with
 * the same findings. A product's or version's score sums its findings weighed so too.
 */
import type { EndpointCriticality, FindingSeverity } from './enums.js';

/** The weight of an open finding by severity. */
export const severityWeights: Readonly<Record<FindingSeverity, number>> = { critical: 100, high: 30, medium: 10, low: 3, info: 1 };

/** How many times a KEV finding weighs more than one of the same severity that is not KEV. */
export const kevFactor = 5;

/** The weight one open finding adds to a risk score. */
export function findingRisk(severity: FindingSeverity, isKev: boolean): number {
  return severityWeights[severity] * (isKev ? kevFactor : 1);
}

/** How many times an open finding of an endpoint of each criticality weighs. */
export const criticalityFactors: Readonly<Record<EndpointCriticality, number>> = { low: 0.5, normal: 1, high: 2, critical: 4 };

/**
 * How EPSS weighs in: not at all. The score ranks by what the remote says (severity, KEV) and
 * what the endpoint is worth; an endpoint's exploit probability, from the imported EPSS file
 * (store/intel/exploit-figures.ts), is shown beside it, so that a score does not change with a
 * file's date (docs/decisions/exploit-intelligence/epss-beside-the-risk-score-not-in-it.md, "EPSS beside the risk score, not in it").
 */
export const exploitProbabilityExplanation =
  "Exploit probability (30 days): 1 − Π(1 − EPSS) over the distinct CVEs of the open findings the risk score counts (exceptions left out), from the current EPSS file; " +
  'a CVE the file does not score adds nothing and is counted apart. Shown beside the risk score, not part of it.';

/** The risk score's explanation, as the console shows it next to the score. */
export const riskScoreExplanation =
  'Risk: the sum over open findings of critical 100, high 30, medium 10, low 3, info 1; a KEV finding counts five times; ' +
  `each is multiplied by its endpoint's criticality: ${Object.entries(criticalityFactors)
    .map(([criticality, factor]) => `${criticality} ${factor}`)
    .join(', ')}. EPSS does not weigh in: an endpoint's exploit probability is shown beside its score.`;
