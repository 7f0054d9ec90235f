import type { Exposure, ExposureSortKey } from '../../../contracts/console/exposure.js';
import { findingSeverities } from '../../../contracts/enums.js';
import { findingRisk } from '../../../contracts/risk-score.js';

/** Numbers per entity: the open findings of the five severities, the KEV ones, the highest CVSS (-1: none), the risk score. */
const stride = findingSeverities.length + 3;
const kevAt = findingSeverities.length;
const cvssAt = kevAt + 1;
const riskAt = kevAt + 2;

/** The risk one open finding adds, by severity index and KEV flag. */
const riskOf = [false, true].map((kev) => findingSeverities.map((severity) => findingRisk(severity, kev)));

/**
 * The exposure (contracts/console/exposure.ts) of a number of entities (endpoints, products,
 * versions, targets), summed finding by finding into one typed array: a million findings are
 * added in milliseconds, and a hundred thousand entities weigh a few megabytes.
 */
export class ExposureTable {
  private readonly values: Float64Array;

  constructor(readonly size: number) {
    this.values = new Float64Array(size * stride);
    for (let entity = 0; entity < size; entity++) this.values[entity * stride + cvssAt] = -1;
  }

  /** Adds one open finding to an entity: its severity (index into findingSeverities), KEV flag and CVSS score (NaN when none). */
  add(entity: number, severity: number, kev: boolean, cvss: number): void {
    const at = entity * stride;
    const values = this.values;
    values[at + severity]!++;
    if (kev) values[at + kevAt]!++;
    if (cvss > values[at + cvssAt]!) values[at + cvssAt] = cvss;
    values[at + riskAt]! += riskOf[kev ? 1 : 0]![severity]!;
  }

  /** The exposure of an entity; an entity out of range (none of its findings is open) has none. */
  exposure(entity: number): Exposure {
    if (entity < 0 || entity >= this.size) return noExposure;
    const at = entity * stride;
    const values = this.values;
    const cvss = values[at + cvssAt]!;
    return {
      open_findings: { critical: values[at]!, high: values[at + 1]!, medium: values[at + 2]!, low: values[at + 3]!, info: values[at + 4]! },
      open_kev_findings: values[at + kevAt]!,
      highest_open_cvss: cvss < 0 ? null : cvss,
      risk_score: values[at + riskAt]!,
    };
  }

  /** What a console sort key compares for an entity; NULL (no score) sorts first, as SQLite's NULLs do. */
  sortValue(entity: number, key: ExposureSortKey): number | null {
    if (entity < 0 || entity >= this.size) return key === 'highest_open_cvss' ? null : 0;
    const at = entity * stride;
    switch (key) {
      case 'risk_score':
        return this.values[at + riskAt]!;
      case 'open_kev_findings':
        return this.values[at + kevAt]!;
      case 'highest_open_cvss': {
        const cvss = this.values[at + cvssAt]!;
        return cvss < 0 ? null : cvss;
      }
      default:
        return this.values[at + findingSeverities.indexOf(severityOfSortKey[key])]!;
    }
  }
}

const severityOfSortKey = {
  open_critical: 'critical',
  open_high: 'high',
  open_medium: 'medium',
  open_low: 'low',
  open_info: 'info',
} as const;

/** The exposure of an entity without open findings. */
export const noExposure: Exposure = {
  open_findings: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  open_kev_findings: 0,
  highest_open_cvss: null,
  risk_score: 0,
};
