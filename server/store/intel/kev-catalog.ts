import * as z from 'zod';
import { threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import { textBounds } from '../../../contracts/text-bounds.js';
import { calendarDate, IntelFileError, sourceDateTime } from './intel-file-error.js';

/** Which catalog a KEV entry comes from, as stored. */
export type KevSource = 'cisa' | 'eu';

/** One entry of a KEV catalog, as stored: the fields both catalogs share, and each one's own. */
export interface KevEntry {
  /** The entry's key within its catalog: CISA's `cveID`, ENISA's `euvdID`. */
  key: string;
  cveId: string | null;
  euvdId: string | null;
  vendorProject: string;
  product: string;
  vulnerabilityName: string;
  /** YYYY-MM-DD: CISA's `dateAdded`, ENISA's `dateReported`. */
  dateAdded: string;
  /** CISA's `dueDate` (which precedes `dateAdded` in 15 entries of 2025: kept as written); null for ENISA's. */
  dueDate: string | null;
  /** CISA's `knownRansomwareCampaignUse`: true for "Known", false for "Unknown"; null for ENISA's. */
  ransomware: boolean | null;
  requiredAction: string | null;
  shortDescription: string;
  notes: string;
  cwes: string[];
  /** ENISA's `exploitationType`; empty for CISA's. */
  exploitationType: string[];
}

/** A KEV catalog, read: its date, version and entries. */
export interface KevCatalog {
  source: KevSource;
  /** CISA's `dateReleased`; ENISA's top-level date where it has one, else its latest `dateReported` (ISO, UTC). */
  sourceDate: string;
  /** CISA's `catalogVersion`; ENISA's files name none. */
  version: string | null;
  entries: KevEntry[];
}

const text = (max: number) => z.string().max(max);
const cveIdSchema = z.string().regex(/^CVE-\d{4}-\d{4,19}$/, 'is not a CVE id CVE-YYYY-NNNN');
const dateSchema = z.string().max(32).transform((value, context) => {
  const date = calendarDate(value);
  if (date === undefined) context.addIssue({ code: 'custom', message: `"${value.slice(0, 32)}" is not a date YYYY-MM-DD` });
  return date ?? '';
});
const cwesSchema = z.array(text(64)).max(256);

const cisaEntrySchema = z.object({
  cveID: cveIdSchema,
  vendorProject: text(textBounds.short),
  product: text(textBounds.short),
  vulnerabilityName: text(textBounds.title),
  dateAdded: dateSchema,
  shortDescription: text(textBounds.long),
  requiredAction: text(textBounds.long),
  dueDate: dateSchema,
  knownRansomwareCampaignUse: z.enum(['Known', 'Unknown']),
  notes: text(textBounds.long).optional(),
  cwes: cwesSchema.optional(),
});

const euEntrySchema = z.object({
  cveID: cveIdSchema.nullish(),
  euvdID: z.string().regex(/^EUVD-\d{4}-\d{1,19}$/, 'is not an EUVD id EUVD-YYYY-N'),
  vendorProject: text(textBounds.short).nullish(),
  product: text(textBounds.short).nullish(),
  vulnerabilityName: text(textBounds.title).nullish(),
  dateReported: dateSchema,
  patchedSince: text(64).nullish(),
  originSource: text(textBounds.short).nullish(),
  shortDescription: text(textBounds.long).nullish(),
  exploitationType: z.array(text(textBounds.short)).max(256).nullish(),
  threatActorsExploiting: z.union([text(textBounds.long), z.array(text(textBounds.short)).max(1024)]).nullish(),
  cwes: z.union([cwesSchema, text(textBounds.title)]).nullish(),
  notes: text(textBounds.long).nullish(),
});

const cisaCatalogSchema = z.object({
  catalogVersion: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'is not a version of 1 to 64 letters, digits, ".", "_" or "-"'),
  dateReleased: z.string().max(64),
  count: z.number().int().min(0),
  vulnerabilities: z.array(z.unknown()).max(threatIntelFileBounds.kevEntries),
});

/** The first issue of a zod error as `field: message`, the field a path below `prefix`. */
function firstIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const field = issue.path.reduce<string>((path, part) => (typeof part === 'number' ? `${path}[${part}]` : `${path}.${String(part)}`), prefix);
  return `${field.replace(/^\./, '')}: ${issue.message}`;
}

/** Which KEV catalog a parsed JSON document is, by its fields; undefined when it is neither. */
export function kevSourceOf(document: unknown): KevSource | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const list = Array.isArray(document) ? document : (document as { vulnerabilities?: unknown }).vulnerabilities;
  if (!Array.isArray(document) && 'catalogVersion' in document && Array.isArray(list)) return 'cisa';
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  return typeof first === 'object' && first !== null && 'euvdID' in first ? 'eu' : undefined;
}

function entriesOf(list: unknown[], schema: z.ZodType, what: string, path: string): unknown[] {
  return list.map((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (!parsed.success) throw new IntelFileError(`The ${what} is refused: ${firstIssue(parsed.error, `${path}[${index}]`)}.`);
    return parsed.data;
  });
}

function refuseRepeatedKeys(entries: KevEntry[], what: string, field: string, path: string): void {
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const earlier = seen.get(entry.key);
    if (earlier !== undefined) throw new IntelFileError(`The ${what} is refused: ${path}[${index}].${field} ${entry.key} is listed twice (${path}[${earlier}] too).`);
    seen.set(entry.key, index);
  });
}

/** CISA's catalog read, or refused naming the field (`vulnerabilities[12].dueDate: …`). */
export function readCisaCatalog(document: unknown): KevCatalog {
  const what = 'CISA KEV catalog';
  const top = cisaCatalogSchema.safeParse(document);
  if (!top.success) throw new IntelFileError(`The ${what} is refused: ${firstIssue(top.error, '')}.`);
  const { catalogVersion, dateReleased, count, vulnerabilities } = top.data;
  const sourceDate = sourceDateTime(dateReleased);
  if (sourceDate === undefined) throw new IntelFileError(`The ${what} is refused: dateReleased "${dateReleased}" is not a date-time.`);
  if (count !== vulnerabilities.length) {
    throw new IntelFileError(`The ${what} is refused: count says ${count} entries and vulnerabilities holds ${vulnerabilities.length} (a truncated or altered file?).`);
  }
  const entries = (entriesOf(vulnerabilities, cisaEntrySchema, what, 'vulnerabilities') as z.infer<typeof cisaEntrySchema>[]).map(
    (entry): KevEntry => ({
      key: entry.cveID,
      cveId: entry.cveID,
      euvdId: null,
      vendorProject: entry.vendorProject,
      product: entry.product,
      vulnerabilityName: entry.vulnerabilityName,
      dateAdded: entry.dateAdded,
      dueDate: entry.dueDate,
      ransomware: entry.knownRansomwareCampaignUse === 'Known',
      requiredAction: entry.requiredAction,
      shortDescription: entry.shortDescription,
      notes: entry.notes ?? '',
      cwes: entry.cwes ?? [],
      exploitationType: [],
    }),
  );
  refuseRepeatedKeys(entries, what, 'cveID', 'vulnerabilities');
  return { source: 'cisa', sourceDate, version: catalogVersion, entries };
}

/**
 * ENISA's catalog read (a list of entries, bare or under `vulnerabilities`), or refused naming
 * the field. Its dates are written `2026/08/17` (its README says YYYY-MM-DD): both are read.
 */
export function readEuCatalog(document: unknown): KevCatalog {
  const what = 'EU KEV catalog';
  const path = Array.isArray(document) ? '' : 'vulnerabilities';
  const list = Array.isArray(document) ? document : (document as { vulnerabilities: unknown[] }).vulnerabilities;
  if (list.length > threatIntelFileBounds.kevEntries) throw new IntelFileError(`The ${what} is refused: it holds more than ${threatIntelFileBounds.kevEntries} entries.`);
  const entries = (entriesOf(list, euEntrySchema, what, path) as z.infer<typeof euEntrySchema>[]).map(
    (entry): KevEntry => ({
      key: entry.euvdID,
      cveId: entry.cveID ?? null,
      euvdId: entry.euvdID,
      vendorProject: entry.vendorProject ?? '',
      product: entry.product ?? '',
      vulnerabilityName: entry.vulnerabilityName ?? '',
      dateAdded: entry.dateReported,
      dueDate: null,
      ransomware: null,
      requiredAction: null,
      shortDescription: entry.shortDescription ?? '',
      notes: entry.notes ?? '',
      cwes: typeof entry.cwes === 'string' ? entry.cwes.split(/[,;]\s*/).filter(Boolean) : (entry.cwes ?? []),
      exploitationType: entry.exploitationType ?? [],
    }),
  );
  if (entries.length === 0) throw new IntelFileError(`The ${what} is refused: it lists no entries.`);
  refuseRepeatedKeys(entries, what, 'euvdID', path);
  const topDate = Array.isArray(document) ? undefined : (document as { dateReleased?: unknown; lastUpdated?: unknown });
  const stated = typeof topDate?.dateReleased === 'string' ? topDate.dateReleased : typeof topDate?.lastUpdated === 'string' ? topDate.lastUpdated : undefined;
  const sourceDate = stated === undefined ? `${entries.reduce((latest, entry) => (entry.dateAdded > latest ? entry.dateAdded : latest), '')}T00:00:00.000Z` : sourceDateTime(stated);
  if (sourceDate === undefined) throw new IntelFileError(`The ${what} is refused: its date "${stated!.slice(0, 64)}" is not a date-time.`);
  return { source: 'eu', sourceDate, version: null, entries };
}
