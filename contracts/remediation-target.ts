import { boundedText, cvssScoreSchema, dateTimeSchema, uuidSchema } from './common.js';
import * as z from 'zod';
import { targetStatuses, targetTypes } from './enums.js';
import { listBounds, textBounds } from './text-bounds.js';

const short = boundedText(textBounds.short);
const path = boundedText(textBounds.path);

/** Remediation target, section 2.2 of the specification. */
export const remediationTargetSchema = z
  .object({
    id: uuidSchema,
    endpoint_id: uuidSchema.nullable(),
    target_type: z.enum(targetTypes),
    vendor: short.nullable(),
    product: short.nullable(),
    version: short.nullable(),
    install_path: path.nullable(),
    package_name: short.nullable(),
    package_manager: short.nullable(),
    status: z.enum(targetStatuses),
    source: short,
    associated_cves: z.array(boundedText(textBounds.cveId)).max(listBounds.associatedCves),
    highest_cvss_score: cvssScoreSchema.nullable(),
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
  })
  .meta({ id: 'RemediationTarget' });
export type RemediationTarget = z.infer<typeof remediationTargetSchema>;

const optionalNullable = (text: z.ZodString) => text.nullish().transform((v) => v ?? null);

/** What a remote tenant may send: optional fields may be absent, unknown fields are dropped. */
export const remediationTargetInputSchema = remediationTargetSchema.extend({
  vendor: optionalNullable(short),
  product: optionalNullable(short),
  version: optionalNullable(short),
  install_path: optionalNullable(path),
  package_name: optionalNullable(short),
  package_manager: optionalNullable(short),
});
