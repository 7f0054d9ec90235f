/**
 * The version to update a product to (issue 28): the newest version of it seen in the
 * organization's fleet, and whether that one is clean of open critical and KEV findings.
 * Versions are ordered as server/store/exposure/version-order.ts says (docs/console.md,
 * "Which version to update to").
 */
import * as z from 'zod';
import { countSchema } from '../common.js';

/**
 * - `update_to`: the newest version seen has no open critical or KEV finding: update to it.
 * - `none_clean`: the newest version seen has some: no version seen in the fleet is clean to update to.
 * - `no_version`: no version seen reads as a version (or none is installed anywhere): there is nothing to compare.
 */
export const updateVerdicts = ['update_to', 'none_clean', 'no_version'] as const;
export type UpdateVerdict = (typeof updateVerdicts)[number];

/** The version to update a product to, with what its installs carry. */
export const versionToUpdateToSchema = z
  .object({
    verdict: z.enum(updateVerdicts).meta({
      description:
        '`update_to`: the newest version seen has no open critical or KEV finding; `none_clean`: it has some; `no_version`: no version seen reads as a version (or none is installed).',
    }),
    version_id: z.string().nullable().meta({ description: "The newest version's id, as the product's versions give it; null with `no_version`." }),
    version: z.string().nullable().meta({ description: 'The newest version seen in the fleet that reads as a version; null with `no_version`.' }),
    installs: countSchema.meta({ description: 'Its remediation targets that are not resolved.' }),
    endpoints: countSchema.meta({ description: 'The endpoints those are on: the endpoints that run it.' }),
    open_findings: countSchema.meta({ description: 'Its open findings (those exceptions in force leave out are not counted, as in the software view).' }),
    open_critical: countSchema.meta({ description: 'Its open critical findings.' }),
    open_kev_findings: countSchema.meta({ description: "Its open findings in CISA's KEV catalog." }),
    unreadable_versions: countSchema.meta({ description: 'Versions seen in the fleet left out because they do not read as versions (or are missing).' }),
    sentence: z.string().meta({ description: 'What the console says, e.g. "Update to 141.0.7390.122 (run by 12 endpoints, no open critical or KEV finding)."' }),
  })
  .meta({ id: 'VersionToUpdateTo' });
export type VersionToUpdateTo = z.infer<typeof versionToUpdateToSchema>;

/**
 * The version to update a product to as the software list gives it for each product: the
 * verdict, the version with its id, and the sentence (its figures are in the product's answer).
 */
export const versionToUpdateToSummarySchema = versionToUpdateToSchema
  .pick({ verdict: true, version_id: true, version: true, sentence: true })
  .meta({
    id: 'VersionToUpdateToSummary',
    description:
      "The version to update the product to, as the product's own answer (`getSoftware`'s `update_to`) gives it: of the whole fleet, whatever the list's filters.",
  });
export type VersionToUpdateToSummary = z.infer<typeof versionToUpdateToSummarySchema>;
