import { type VulnrichmentReport, threatIntelFileBounds } from '../../../contracts/console/threat-intel.js';
import type { Exploitation, TechnicalImpact, YesNo } from '../../../contracts/ssvc-tables.js';
import { cveKey } from './cve-key.js';
import { IntelFileError, sourceDateTime } from './intel-file-error.js';

/** One CVE's SSVC values from CISA's ADP container, normalised to the tables' values. */
export interface VulnrichmentRecord {
  cveId: string;
  exploitation: Exploitation;
  automatable: YesNo;
  technicalImpact: TechnicalImpact;
  /** The SSVC block's `timestamp`, ISO in UTC. */
  timestamp: string;
  /** The SSVC block's `version` (of the Coordinator tree it was scored for). */
  version: string;
}

/** Vulnrichment records read: the newest timestamp is the import's date. */
export interface VulnrichmentFile {
  sourceDate: string;
  /** The SSVC versions the records name, joined with ", ". */
  version: string;
  records: VulnrichmentRecord[];
  report: VulnrichmentReport;
}

/** A document to read: where it came from (a file of an archive, or "the file") and its parsed JSON. */
export interface VulnrichmentDocument {
  name: string;
  json: unknown;
}

/** Whether parsed JSON is a CVE JSON 5 record, or a list of them. */
export function isCveRecordJson(document: unknown): boolean {
  const first: unknown = Array.isArray(document) ? document[0] : document;
  return typeof first === 'object' && first !== null && (first as { dataType?: unknown }).dataType === 'CVE_RECORD';
}

/** Whether an archive's file is a CVE record, by its name: `2024/1xxx/CVE-2024-1086.json`. */
export function isCveRecordName(name: string): boolean {
  return /(^|\/)CVE-\d{4}-\d{4,19}\.json$/i.test(name);
}

/** The values each decision point takes once read: lower case, spaces collapsed, CISA's `poc` as the tree's `public poc`. */
const accepted = {
  Exploitation: { none: 'none', poc: 'public poc', 'public poc': 'public poc', active: 'active' },
  Automatable: { no: 'no', yes: 'yes' },
  'Technical Impact': { partial: 'partial', total: 'total' },
} as const satisfies Record<string, Record<string, string>>;
type Point = keyof typeof accepted;
const points = Object.keys(accepted) as Point[];

/** Reads the CISA-ADP SSVC block of Vulnrichment records, normalising and counting each value read as another. */
class Reader {
  readonly records: VulnrichmentRecord[] = [];
  private readonly normalised = new Map<string, VulnrichmentReport['normalised'][number]>();
  private readonly seen = new Map<string, string>();
  files = 0;
  withoutSsvc = 0;

  read(document: unknown, where: string): void {
    if (++this.files > threatIntelFileBounds.vulnrichmentRecords) throw new IntelFileError(`The import holds more than ${threatIntelFileBounds.vulnrichmentRecords} Vulnrichment records, the most an import takes.`);
    const refuse = (field: string, why: string): never => {
      throw new IntelFileError(`The Vulnrichment record ${where} is refused: ${field} ${why}.`);
    };
    if (typeof document !== 'object' || document === null || Array.isArray(document)) refuse('the record', 'is not a JSON object');
    const record = document as { dataType?: unknown; cveMetadata?: { cveId?: unknown }; containers?: { adp?: unknown } };
    if (record.dataType !== 'CVE_RECORD') refuse('dataType', 'is not "CVE_RECORD"');
    const cveId = record.cveMetadata?.cveId;
    if (typeof cveId !== 'string' || cveKey(cveId) === undefined) refuse('cveMetadata.cveId', 'is not a CVE id CVE-YYYY-NNNN');
    const id = (cveId as string).toUpperCase();
    const adp = record.containers?.adp;
    if (adp !== undefined && !Array.isArray(adp)) refuse('containers.adp', 'is not a list');
    const cisa = ((adp as unknown[] | undefined) ?? []).findIndex((container) => (container as { providerMetadata?: { shortName?: unknown } } | null)?.providerMetadata?.shortName === 'CISA-ADP');
    const metrics: unknown = cisa < 0 ? undefined : (adp as { metrics?: unknown }[])[cisa]!.metrics;
    const ssvcIndex = Array.isArray(metrics) ? metrics.findIndex((metric) => (metric as { other?: { type?: unknown } } | null)?.other?.type === 'ssvc') : -1;
    if (ssvcIndex < 0) {
      this.withoutSsvc++;
      return;
    }
    const path = `containers.adp[${cisa}].metrics[${ssvcIndex}].other.content`;
    const content = (metrics as { other: { content?: unknown } }[])[ssvcIndex]!.other.content as { options?: unknown; version?: unknown; timestamp?: unknown } | undefined;
    if (typeof content !== 'object' || content === null) refuse(path, 'is missing');
    const timestamp = typeof content!.timestamp === 'string' ? sourceDateTime(content!.timestamp) : undefined;
    if (timestamp === undefined) refuse(`${path}.timestamp`, 'is not a date-time');
    const version = content!.version;
    if (typeof version !== 'string' || !/^[0-9A-Za-z.-]{1,32}$/.test(version)) refuse(`${path}.version`, 'is not a version');
    if (!Array.isArray(content!.options)) refuse(`${path}.options`, 'is not a list');
    const values = new Map<Point, string>();
    (content!.options as unknown[]).forEach((option, index) => {
      if (typeof option !== 'object' || option === null) refuse(`${path}.options[${index}]`, 'is not an object');
      for (const [name, raw] of Object.entries(option as Record<string, unknown>)) {
        if (!points.includes(name as Point)) continue;
        const point = name as Point;
        if (typeof raw !== 'string' || raw.length > 64) refuse(`${path}.options[${index}].${name}`, 'is not a text');
        const read = (raw as string).trim().replace(/\s+/g, ' ').toLowerCase();
        const value = (accepted[point] as Record<string, string>)[read];
        if (value === undefined) refuse(`${path}.options[${index}].${name}`, `"${raw as string}" is none of ${Object.keys(accepted[point]).join(', ')}`);
        if (value !== raw) this.count(point, raw as string, value!);
        values.set(point, value!);
      }
    });
    for (const point of points) if (!values.has(point)) refuse(`${path}.options`, `names no ${point}`);
    const earlier = this.seen.get(id);
    if (earlier !== undefined) refuse('cveMetadata.cveId', `${id} is in ${earlier} too`);
    this.seen.set(id, where);
    this.records.push({
      cveId: id,
      exploitation: values.get('Exploitation') as Exploitation,
      automatable: values.get('Automatable') as YesNo,
      technicalImpact: values.get('Technical Impact') as TechnicalImpact,
      timestamp: timestamp!,
      version: version as string,
    });
  }

  private count(field: string, from: string, to: string): void {
    const key = `${field}\n${from}`;
    const counted = this.normalised.get(key);
    if (counted) counted.count++;
    else this.normalised.set(key, { field, from, to, count: 1 });
  }

  report(): VulnrichmentReport {
    const normalised = [...this.normalised.values()].sort((a, b) => (a.field + a.from < b.field + b.from ? -1 : 1));
    return { files: this.files, records: this.records.length, without_ssvc: this.withoutSsvc, normalised };
  }
}

/**
 * Vulnrichment records (CVE JSON 5, issue 37): one record, a JSON list of records, or the files
 * of an archive, each read for CISA's SSVC values (Exploitation, Automatable, Technical
 * Impact) with their version and timestamp. Values are normalised and each normalisation
 * counted. A record that is malformed, or whose values are none the tables know, refuses the
 * whole import, naming the file and field; a record without the block is counted and left out.
 */
export function readVulnrichment(documents: readonly VulnrichmentDocument[]): VulnrichmentFile {
  const reader = new Reader();
  for (const { name, json } of documents) {
    if (Array.isArray(json)) json.forEach((record, index) => reader.read(record, `${name}[${index}]`));
    else reader.read(json, name);
  }
  if (reader.records.length === 0) throw new IntelFileError(`The Vulnrichment import is refused: none of its ${reader.files} records holds CISA's SSVC values (containers.adp[] of CISA-ADP).`);
  const sourceDate = reader.records.reduce((latest, record) => (record.timestamp > latest ? record.timestamp : latest), '');
  const version = [...new Set(reader.records.map((record) => record.version))].sort().join(', ');
  return { sourceDate, version, records: reader.records, report: reader.report() };
}
