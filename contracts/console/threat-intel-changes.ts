/**
 * What each intelligence import changed for an organization (`/app/orgs/:slug/intel/changes`):
 * the CVEs of its open findings newly listed in a KEV catalog and those whose EPSS crossed the
 * installation's threshold, each with its endpoints and plan steps; the threshold setting
 * (`/app/intel/settings`); and where the remote's `is_kev` and the imported catalogs disagree
 * (`/app/orgs/:slug/intel/kev-agreement`).
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { threatIntelKinds } from './threat-intel.js';
import { intelChangesKept } from './threat-intel-basics.js';

export { intelChangesKept };


/** How many CVEs a change lists of each sort (the count says how many there were). */
export const intelChangeCvesListed = 100;

/** How many endpoints and plan steps a listed CVE names (its totals say how many there were). */
export const intelChangePlacesListed = 20;

/** The EPSS threshold whose crossing an import records, unless the setting says otherwise. */
export const defaultEpssThreshold = 0.1;

/** The rise over 7 days the findings list's `epssRising` filter keeps, unless the setting says otherwise. */
export const defaultEpssRise = 0.05;

/** The installation's intelligence settings. */
export const intelSettingsSchema = z
  .object({
    epss_threshold: z.number().min(0.0001).max(1).meta({
      description: 'An EPSS import records, for each organization, the CVEs of its open findings whose score crossed this value (up or down) since the previous import. From 0.0001 to 1.',
    }),
    epss_rise: z.number().min(0.0001).max(1).meta({
      description: "The findings list's `epssRising=true` keeps the findings whose CVE's EPSS rose by at least this much over 7 days. From 0.0001 to 1.",
    }),
  })
  .meta({ id: 'IntelSettings' });
export type IntelSettings = z.infer<typeof intelSettingsSchema>;

/** A CVE an import changed for the organization, with what its open findings are on. */
export const intelChangeCveSchema = z
  .object({
    cve_id: z.string(),
    /** KEV: the catalog (`cisa`, `eu`) and its `dateAdded`; EPSS: the score before and after. */
    source: z.enum(['cisa', 'eu']).nullable(),
    date_added: z.string().nullable(),
    epss_before: z.number().min(0).max(1).nullable(),
    epss_after: z.number().min(0).max(1).nullable(),
    /** The first endpoints of its open findings, by hostname ({@link intelChangePlacesListed} at most). */
    endpoints: z.array(z.object({ id: z.string(), hostname: z.string().nullable() })),
    endpoints_total: countSchema,
    /** The products (plan steps) whose update closes its open findings, by the software view's id ({@link intelChangePlacesListed} at most). */
    plan_steps: z.array(z.object({ product_id: z.string(), vendor: z.string().nullable(), product: z.string().nullable() })),
    plan_steps_total: countSchema,
  })
  .meta({ id: 'IntelChangeCve' });
export type IntelChangeCve = z.infer<typeof intelChangeCveSchema>;

/** What one import changed for the organization. */
export const intelChangeSchema = z
  .object({
    id: z.number().int().min(1),
    import_id: z.number().int().min(1),
    kind: z.enum(threatIntelKinds),
    source_date: dateTimeSchema,
    version: z.string().nullable(),
    recorded_at: dateTimeSchema,
    /** EPSS: the threshold in force at the import; null for a catalog. */
    epss_threshold: z.number().nullable(),
    /** EPSS: the previous current file's model when this one's differs (scores not comparable); null otherwise. */
    model_changed_from: z.string().nullable(),
    newly_kev: z.object({ total: countSchema, cves: z.array(intelChangeCveSchema) }),
    epss_crossed: z.object({ up: countSchema, down: countSchema, cves: z.array(intelChangeCveSchema) }),
  })
  .meta({ id: 'IntelChange' });
export type IntelChange = z.infer<typeof intelChangeSchema>;

/** The organization's import changes, newest first. */
export const intelChangeListSchema = z.object({ data: z.array(intelChangeSchema) }).meta({ id: 'IntelChangeList' });
export type IntelChangeList = z.infer<typeof intelChangeListSchema>;

/** A current KEV catalog, as the comparison names it. */
export const kevCatalogNameSchema = z
  .object({ source: z.enum(['cisa', 'eu']), version: z.string().nullable(), source_date: dateTimeSchema })
  .meta({ id: 'KevCatalogName' });

/**
 * Where the remote's `is_kev` and the imported catalogs (every current one: a CVE is listed when
 * any lists it) disagree, over the organization's open findings; the findings list's filters
 * `kevNotListed` and `kevListedNotFlagged` keep the same findings.
 */
export const kevAgreementSchema = z
  .object({
    /** The current catalogs compared with; empty before any is imported (the counts are then 0). */
    catalogs: z.array(kevCatalogNameSchema),
    /** Open findings the remote flags `is_kev` whose CVE no current catalog lists. */
    flagged_not_listed: countSchema,
    /** Open findings of CVEs a current catalog lists that the remote does not flag. */
    listed_not_flagged: countSchema,
  })
  .meta({ id: 'KevAgreement' });
export type KevAgreement = z.infer<typeof kevAgreementSchema>;
