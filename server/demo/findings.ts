/**
 * Generated vulnerability findings: scanner reports of the CVEs of each target, consistent with the
 * target (same endpoint, a CVE of its associated_cves) and with the CVE (text, score, KEV status).
 */
import { deadlineDays as deadlineDaysOf, defaultSlaPolicy } from '../../contracts/remediation-deadlines.js';
import type { RemediationTarget } from '../../contracts/remediation-target.js';
import type { VulnerabilityFinding } from '../../contracts/vulnerability-finding.js';
import { allocate } from './allocate.js';
import { DAY_MS, HOUR_MS, iso, referenceMs } from './clock.js';
import type { EndpointContext } from './endpoints.js';
import type { Random } from './random.js';
import { RESOLVED, type TargetsContext } from './remediation-targets.js';
import type { CveSet, Vulnerability } from './vulnerabilities.js';

const MAX_SCANNERS = 8;
const LATEST_DETECTION_MS = referenceMs - HOUR_MS;

/**
 * How likely a (target, CVE, scanner) report of a KEV CVE is drawn, relative to one of a CVE outside
 * KEV. The dataset holds fewer findings than its targets' CVEs and scanners could give, so it is a
 * sample of them; the catalogue, made of well-known CVEs, holds far more KEV CVEs than the updates
 * it names really fix (a Patch Tuesday or a Chrome release fixes dozens of CVEs, a few at most
 * in KEV), and sampling KEV reports at this rate brings their share of the findings back to what
 * a fleet shows, about 15 % of the demo's open findings instead of 92 %. Every finding still
 * reports a CVE that applies to its target, with the catalogue's facts.
 */
const KEV_DRAW_WEIGHT = 0.125;

/**
 * How long a finding takes to be remediated, from a uniform draw `u`: its deadline under the
 * default policy (remediation-deadlines.ts; 180 days without one) times 0.1 to 3, skewed
 * short, so that about 55 % are remediated in time and the rest late, a few very late.
 */
function remediationDelayMs(vulnerability: Vulnerability, u: number): number {
  const deadlineDays = deadlineDaysOf(defaultSlaPolicy, vulnerability.severity, vulnerability.kev) ?? 180;
  return deadlineDays * (0.1 + 2.9 * u * u) * DAY_MS;
}

/**
 * How long ago an open finding was first detected at most (a target found later bounds it),
 * from a uniform draw `u`: up to two years, skewed to weeks (median three months), so that some
 * are within their deadline and some past it, and the backlog has a past.
 */
function openAgeMs(u: number): number {
  return 730 * DAY_MS * u ** 3;
}

function drawWeight(vulnerability: Vulnerability): number {
  return vulnerability.kev ? KEV_DRAW_WEIGHT : 1;
}

/** The sum of the draw weights of a CVE set, cached per shared set. */
const setWeights = new WeakMap<CveSet, number>();
function setWeight(set: CveSet): number {
  let weight = setWeights.get(set);
  if (weight === undefined) {
    weight = 0;
    for (const vulnerability of set.vulnerabilities) weight += drawWeight(vulnerability);
    setWeights.set(set, weight);
  }
  return weight;
}

/**
 * Generates exactly `total` findings over the targets that have CVEs, more for targets with more
 * CVEs (a KEV CVE counting for KEV_DRAW_WEIGHT). Each scanner of the endpoint reports each CVE of
 * the target at most once, the reports of a target being drawn with those weights when it gets
 * fewer than its CVEs times its scanners; only when the total cannot be reached that way does a
 * (target, CVE, scanner) repeat, as an earlier occurrence that was remediated and detected again
 * later.
 */
export function generateFindings(
  endpoints: readonly EndpointContext[],
  targets: TargetsContext,
  total: number,
  random: Random,
  times: Random,
): VulnerabilityFinding[] {
  const n = targets.targets.length;
  const weights = new Float64Array(n);
  const caps = new Int32Array(n);
  for (let t = 0; t < n; t++) {
    const set = targets.cves[t] as CveSet;
    const cveCount = set.ids.length;
    if (cveCount === 0) continue;
    const scanners = Math.min(MAX_SCANNERS, (endpoints[targets.endpointIndex[t] as number] as EndpointContext).scanners.length);
    weights[t] = setWeight(set) * (0.5 + random.float());
    caps[t] = cveCount * scanners;
  }
  const counts = allocate(total, weights, caps, random, true);

  const findings: VulnerabilityFinding[] = new Array<VulnerabilityFinding>(total);
  // Per scanner of the current target: when it first and last scanned it. The strings are shared
  // by the findings of that scan, as a scanner reports all it sees at once.
  const firstScanMs = new Float64Array(MAX_SCANNERS);
  const firstScan: string[] = new Array<string>(MAX_SCANNERS).fill('');
  const lastScanMs = new Float64Array(MAX_SCANNERS);
  const lastScan: string[] = new Array<string>(MAX_SCANNERS).fill('');
  // The (CVE, scanner) pairs of the current target in the order they are reported, when sampled.
  let pairOrder = new Int32Array(64);
  let kevPairs = new Int32Array(64);
  let otherPairs = new Int32Array(64);
  let f = 0;

  for (let t = 0; t < n; t++) {
    const count = counts[t] as number;
    if (count === 0) continue;
    const target = targets.targets[t] as RemediationTarget;
    const vulnerabilities = (targets.cves[t] as CveSet).vulnerabilities;
    const scanners = (endpoints[targets.endpointIndex[t] as number] as EndpointContext).scanners;
    const scannerCount = Math.min(scanners.length, MAX_SCANNERS);
    const createdMs = targets.createdMs[t] as number;
    const resolved = targets.status[t] === RESOLVED;
    const resolvedMs = targets.updatedMs[t] as number;
    for (let s = 0; s < scannerCount; s++) {
      const first = Math.min(createdMs + random.float() * 3 * DAY_MS, LATEST_DETECTION_MS);
      firstScanMs[s] = first;
      firstScan[s] = iso(first);
      const last = Math.max(first, referenceMs - random.float() * (scanners[s] === 'agent-scan' ? 1 : 7) * DAY_MS);
      lastScanMs[s] = last;
      lastScan[s] = last === first ? (firstScan[s] as string) : iso(last);
    }
    const cveCount = vulnerabilities.length;
    const pairs = cveCount * scannerCount;
    const cveOffset = random.int(cveCount);
    const scannerOffset = random.int(scannerCount);
    const sampled = count < pairs;
    if (sampled) {
      // Fewer reports than pairs: a weighted sample without replacement, drawn one pair at a
      // time, a pair of a KEV CVE weighing KEV_DRAW_WEIGHT and any other pair 1.
      if (pairOrder.length < pairs) {
        pairOrder = new Int32Array(pairs * 2);
        kevPairs = new Int32Array(pairs * 2);
        otherPairs = new Int32Array(pairs * 2);
      }
      let kevLeft = 0;
      let otherLeft = 0;
      for (let p = 0; p < pairs; p++) {
        if ((vulnerabilities[(cveOffset + p) % cveCount] as Vulnerability).kev) kevPairs[kevLeft++] = p;
        else otherPairs[otherLeft++] = p;
      }
      for (let k = 0; k < count; k++) {
        const kevWeight = kevLeft * KEV_DRAW_WEIGHT;
        if (kevLeft > 0 && (otherLeft === 0 || random.float() * (kevWeight + otherLeft) < kevWeight)) {
          const j = random.int(kevLeft);
          pairOrder[k] = kevPairs[j] as number;
          kevPairs[j] = kevPairs[--kevLeft] as number;
        } else {
          const j = random.int(otherLeft);
          pairOrder[k] = otherPairs[j] as number;
          otherPairs[j] = otherPairs[--otherLeft] as number;
        }
      }
    }

    for (let k = 0; k < count; k++) {
      const pair = k % pairs;
      const occurrence = Math.floor(k / pairs);
      const occurrences = Math.floor((count - 1 - pair) / pairs) + 1;
      const chosen = sampled ? (pairOrder[k] as number) : pair;
      const vulnerability = vulnerabilities[(cveOffset + chosen) % cveCount] as Vulnerability;
      const s = (scannerOffset + Math.floor(chosen / cveCount)) % scannerCount;

      let firstMs = firstScanMs[s] as number;
      let firstDetected = firstScan[s] as string;
      if (vulnerability.notBeforeMs > firstMs) {
        // Published after the scanner first saw the target: found by a later scan.
        firstMs = Math.min(vulnerability.notBeforeMs + random.float() * 5 * DAY_MS, LATEST_DETECTION_MS);
        firstDetected = iso(firstMs);
      }
      // Repeated occurrences split the time since the first detection: each but the last was
      // remediated before the next one was detected.
      let windowEndMs = referenceMs;
      if (occurrences > 1) {
        const baseMs = firstMs;
        const span = (referenceMs - baseMs) / occurrences;
        if (occurrence > 0) {
          firstMs = Math.min(baseMs + span * (occurrence + random.float() * 0.2), LATEST_DETECTION_MS);
          firstDetected = iso(firstMs);
        }
        if (occurrence < occurrences - 1) windowEndMs = baseMs + span * (occurrence + 1);
      }
      const last = occurrence === occurrences - 1;

      // Remediated after a time drawn around its deadline (never after its target was resolved;
      // an earlier occurrence before the next one was detected), from the times' own stream so
      // that the findings' other draws, their ids and statuses, are what they were before.
      let remediatedMs = Number.NaN;
      if (!last || resolved || random.chance(0.08)) {
        const atResolution = last && resolved && resolvedMs > firstMs + HOUR_MS;
        const delayMs = remediationDelayMs(vulnerability, atResolution ? times.float() : random.float());
        const latestMs = !last ? windowEndMs - HOUR_MS : atResolution ? resolvedMs : LATEST_DETECTION_MS;
        remediatedMs =
          firstMs + HOUR_MS + delayMs <= latestMs ? firstMs + HOUR_MS + delayMs : firstMs + HOUR_MS + times.float() * Math.max(0, latestMs - firstMs - HOUR_MS);
      } else {
        // Open: found by a scan some time ago (a new plugin, a package installed again).
        firstMs = Math.min(Math.max(firstMs, referenceMs - openAgeMs(times.float())), LATEST_DETECTION_MS);
        firstDetected = iso(firstMs);
      }
      let remediatedAt: string | null = null;
      let updatedAt: string;
      if (!Number.isNaN(remediatedMs)) {
        remediatedAt = iso(remediatedMs);
        updatedAt = remediatedAt;
      } else {
        updatedAt = (lastScanMs[s] as number) >= firstMs ? (lastScan[s] as string) : firstDetected;
      }

      findings[f++] = {
        id: random.uuid(),
        endpoint_id: target.endpoint_id,
        remediation_target_id: target.id,
        cve_id: vulnerability.id,
        severity: vulnerability.severity,
        cvss_score: vulnerability.cvssScore,
        is_kev: vulnerability.kev,
        status: remediatedAt === null ? 'open' : 'remediated',
        source: scanners[s] as string,
        title: vulnerability.title,
        description: vulnerability.description,
        solution: vulnerability.solution,
        first_detected_at: firstDetected,
        remediated_at: remediatedAt,
        created_at: firstDetected,
        updated_at: updatedAt,
      };
    }
  }
  if (f !== total) throw new Error(`generated ${f} findings instead of ${total}: too few targets have CVEs`);
  return findings;
}
