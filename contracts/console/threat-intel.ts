/**
 * Exploit intelligence imported from files (`/app/intel/imports`, `remediation-console intel`):
 * FIRST's EPSS daily CSV and the KEV catalogs of CISA and ENISA, each recognised by its content.
 * Intelligence is local to the installation, kept across syncs and never served by /v1.
 */
import * as z from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';
import { epssAttribution } from './threat-intel-basics.js';

export { epssAttribution };

/** The kinds of file an import recognises. */
export const threatIntelKinds = ['epss', 'cisa-kev', 'eu-kev', 'vulnrichment'] as const;
export type ThreatIntelKind = (typeof threatIntelKinds)[number];

/** The most bytes an intelligence file may hold, gzip or plain, and the most once unzipped. */
export const threatIntelFileBounds = {
  /** The file as sent: FIRST's gzip of about 400,000 rows is under 2 MB, its CSV 11.6 MB, CISA's catalog under 2 MB. */
  fileBytes: 32 * 1024 * 1024,
  /** Unzipped: FIRST's CSV is about 11.6 MB, CISA's JSON about 1.5 MB. */
  plainBytes: 128 * 1024 * 1024,
  /** Rows of an EPSS file (FIRST's holds about 400,000 in 2026: room for growth). */
  epssRows: 2_000_000,
  /** Entries of a KEV catalog (CISA's held 1,404 in 2025). */
  kevEntries: 100_000,
  /** Files of a zip or tar archive (CISA's Vulnrichment repository held about 120,000 records in 2026). */
  archiveEntries: 1_000_000,
  /** Vulnrichment records of one import. */
  vulnrichmentRecords: 500_000,
  /** One Vulnrichment record's bytes (the largest of the shared snapshot is 50 kB). */
  recordBytes: 4 * 1024 * 1024,
} as const;

/** How an import read its values: each normalisation of a value (`Exploitation: "PoC" → "public poc"`) and how often it was made. */
export const vulnrichmentReportSchema = z
  .object({
    files: countSchema.meta({ description: 'The CVE records read (files of an archive, or records of a JSON list).' }),
    records: countSchema.meta({ description: "Those with CISA's SSVC block (`containers.adp[]` of `CISA-ADP`, `metrics[].other.type` `ssvc`), imported." }),
    without_ssvc: countSchema.meta({ description: 'Records without that block: read, and left out.' }),
    normalised: z
      .array(z.object({ field: z.string(), from: z.string(), to: z.string(), count: countSchema }))
      .meta({ description: 'Each value read as another (case, spacing, `poc` as the table\'s `public poc`), with how many times.' }),
  })
  .meta({ id: 'VulnrichmentReport' });
export type VulnrichmentReport = z.infer<typeof vulnrichmentReportSchema>;


/** One import of an intelligence file, as recorded. */
export const threatIntelImportSchema = z
  .object({
    id: z.number().int().min(1).meta({ description: 'The import\'s number, in the order imports were made.' }),
    kind: z.enum(threatIntelKinds).meta({ description: '`epss` (FIRST\'s daily CSV), `cisa-kev` (CISA\'s catalog), `eu-kev` (ENISA\'s catalog), `vulnrichment` (CISA\'s Vulnrichment records).' }),
    source_date: dateTimeSchema.meta({
      description: "The file's own date: EPSS's `score_date`, CISA's `dateReleased`, ENISA's latest `dateReported` (as UTC).",
    }),
    version: z.string().nullable().meta({ description: "EPSS's `model_version`, CISA's `catalogVersion`; null where the file names none (ENISA's)." }),
    rows: countSchema.meta({ description: 'The scores or entries the file holds.' }),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'SHA-256 of the file as imported (gzip or plain), lower-case hex.' }),
    imported_at: dateTimeSchema,
    current: z.boolean().meta({
      description: 'Whether its figures are the current ones of its kind; false for a file older than the newest imported (kept as history) and for an import interrupted before it finished.',
    }),
    finished: z.boolean().meta({ description: 'False while the import runs, and for one the server was stopped during (import the file again).' }),
    report: vulnrichmentReportSchema.nullable().meta({ description: "A Vulnrichment import's counts and normalisations; null for other kinds." }),
  })
  .meta({ id: 'ThreatIntelImport' });
export type ThreatIntelImport = z.infer<typeof threatIntelImportSchema>;

/** The answer of an import: the record, and whether the same file (by SHA-256) had been imported before, in which case nothing changed. */
export const threatIntelImportAnswerSchema = threatIntelImportSchema
  .extend({ already_imported: z.boolean().meta({ description: 'True when this very file (same kind and SHA-256) was imported before: its earlier record is answered and nothing changed.' }) })
  .meta({ id: 'ThreatIntelImportAnswer' });
export type ThreatIntelImportAnswer = z.infer<typeof threatIntelImportAnswerSchema>;

/** Every import, newest first, with FIRST's attribution line. */
export const threatIntelImportListSchema = z
  .object({
    data: z.array(threatIntelImportSchema),
    attribution: z.literal(epssAttribution),
  })
  .meta({ id: 'ThreatIntelImportList' });
export type ThreatIntelImportList = z.infer<typeof threatIntelImportListSchema>;

/** Why a CVE's EPSS change over a span is null. */
export const epssChangeGaps = ['no-file', 'not-scored', 'no-earlier-import', 'model-changed'] as const;

/** A CVE's EPSS change over 7 or 30 days: the newest EPSS import's score less the score of the newest import at least that many days older, of the same model. */
export const epssChangeSchema = z
  .object({
    days: z.union([z.literal(7), z.literal(30)]),
    change: z.number().min(-1).max(1).nullable().meta({ description: 'Null when no change can be computed (`gap` says why); never across model versions.' }),
    from_date: dateTimeSchema.nullable().meta({ description: 'The score date of the earlier import compared with, when there is one.' }),
    gap: z.enum(epssChangeGaps).nullable().meta({
      description:
        '`no-file` (no EPSS file imported), `not-scored` (the newest file does not score the CVE), `no-earlier-import` (no import kept that is old enough, or it does not score the CVE), `model-changed` (the earlier import is of another model version: scores are not comparable); null when `change` is a number.',
    }),
  })
  .meta({ id: 'EpssChange' });
export type EpssChange = z.infer<typeof epssChangeSchema>;

/** One kept EPSS import's figures of a CVE. */
export const epssHistoryPointSchema = z
  .object({
    import_id: z.number().int().min(1),
    score_date: dateTimeSchema,
    model_version: z.string().nullable(),
    epss: z.number().min(0).max(1),
    percentile: z.number().min(0).max(1),
  })
  .meta({ id: 'EpssHistoryPoint' });
export type EpssHistoryPoint = z.infer<typeof epssHistoryPointSchema>;

/** `GET /app/intel/epss/:cveId`: a CVE's kept EPSS history (the newest first) and its 7- and 30-day change. */
export const epssHistorySchema = z
  .object({
    cve_id: z.string(),
    history: z.array(epssHistoryPointSchema),
    changes: z.array(epssChangeSchema),
    attribution: z.literal(epssAttribution),
  })
  .meta({ id: 'EpssHistory' });
export type EpssHistory = z.infer<typeof epssHistorySchema>;
