import { cvssScoreSchema, dateTimeSchema, uuidSchema } from './common.js';
import { z } from 'zod';
import { targetStatuses, targetTypes } from './enums.js';


/** Remediation target, section 2.2 of the specification. */
export const remediationTargetSchema = z
  .object({
    id: uuidSchema,
    endpoint_id: uuidSchema.nullable(),
    target_type: z.enum(targetTypes),
    vendor: z.string().nullable(),
    product: z.string().nullable(),
    version: z.string().nullable(),
    install_path: z.string().nullable(),
    package_name: z.string().nullable(),
    package_manager: z.string().nullable(),
    status: z.enum(targetStatuses),
    source: z.string(),
    associated_cves: z.array(z.string()),
    highest_cvss_score: cvssScoreSchema.nullable(),
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
  })
  .meta({ id: 'RemediationTarget' });
export type RemediationTarget = z.infer<typeof remediationTargetSchema>;

const optionalNullable = z.string().nullish().transform((v) => v ?? null);

/** What a remote tenant may send: optional fields may be absent, unknown fields are dropped. */
export const remediationTargetInputSchema = remediationTargetSchema.extend({
  vendor: optionalNullable,
  product: optionalNullable,
  version: optionalNullable,
  install_path: optionalNullable,
  package_name: optionalNullable,
  package_manager: optionalNullable,
});
