import * as z from 'zod';
import { countSchema, severityCountsSchema } from '../common.js';
import { riskScoreExplanation } from '../risk-score.js';

/**
 * What an endpoint, a product or a version is exposed to: its open findings by severity, the
 * open ones in CISA's KEV catalog, the highest CVSS score among them and the risk score
 * (risk-score.ts). The console adds these to endpoints, software and versions.
 */
export const exposureShape = {
  open_findings: severityCountsSchema.meta({ description: 'Open findings by severity.' }),
  open_kev_findings: countSchema.meta({ description: "Open findings whose CVE is in CISA's KEV catalog." }),
  highest_open_cvss: z.number().min(0).max(10).nullable().meta({ description: 'The highest CVSS score of the open findings; null when none has one.' }),
  risk_score: z.number().min(0).meta({ description: `${riskScoreExplanation} 0 without open findings.` }),
};

/** {@link exposureShape} as an object. */
export const exposureSchema = z.object(exposureShape);
export type Exposure = z.infer<typeof exposureSchema>;

/** The console's sort keys of an exposure, the same for every list that shows one. */
export const exposureSortKinds = {
  risk_score: 'value',
  open_critical: 'value',
  open_high: 'value',
  open_medium: 'value',
  open_low: 'value',
  open_info: 'value',
  open_kev_findings: 'value',
  highest_open_cvss: 'value',
} as const;
export type ExposureSortKey = keyof typeof exposureSortKinds;
