/**
 * Exploit intelligence imported from files (`/app/intel/imports`, `remediation-console intel`):
 * FIRST's EPSS daily CSV and the KEV catalogs of CISA and ENISA, each recognised by its content.
 * Intelligence is local to the installation, kept across syncs and never served by /v1.
 */
import { z } from 'zod';
import { countSchema, dateTimeSchema } from '../common.js';

/** The kinds of file an import recognises. */
export const threatIntelKinds = ['epss', 'cisa-kev', 'eu-kev'] as const;
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
} as const;

/** FIRST's attribution line, which the console shows beside EPSS figures. */
export const epssAttribution = 'See EPSS at https://www.first.org/epss';

/** One import of an intelligence file, as recorded. */
export const threatIntelImportSchema = z
  .object({
    id: z.number().int().min(1).meta({ description: 'The import\'s number, in the order imports were made.' }),
    kind: z.enum(threatIntelKinds).meta({ description: '`epss` (FIRST\'s daily CSV), `cisa-kev` (CISA\'s catalog), `eu-kev` (ENISA\'s catalog).' }),
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
