/**
 * The console's risk score, written once for the store that computes it, the console that
 * explains it and the tests that check it. Free of zod, for the renderer's bundle.
 *
 * An open finding weighs by its severity, each step about three times the one below, so that
 * one critical finding outweighs three high ones; a finding whose CVE is in CISA's KEV catalog
 * (exploited in the wild) weighs five times as much, so that a KEV high (150) ranks above a
 * critical nobody is known to exploit (100). The score of an endpoint, a product or a version is
 * the sum over its open findings: 0 without any, and every open finding adds to it.
 */
import type { FindingSeverity } from './enums.js';

/** The weight of an open finding by severity. */
export const severityWeights: Readonly<Record<FindingSeverity, number>> = { critical: 100, high: 30, medium: 10, low: 3, info: 1 };

/** How many times a KEV finding weighs more than one of the same severity that is not KEV. */
export const kevFactor = 5;

/** The weight one open finding adds to a risk score. */
export function findingRisk(severity: FindingSeverity, isKev: boolean): number {
  return severityWeights[severity] * (isKev ? kevFactor : 1);
}

/** The risk score's explanation, as the console shows it next to the score. */
export const riskScoreExplanation =
  'Risk: the sum over open findings of critical 100, high 30, medium 10, low 3, info 1; a KEV finding counts five times.';
