/**
 * A technical report's appendix (issue 40): every finding of the report's filter, uncapped, as
 * the findings list's CSV (the export's registry columns and writer) and as a JSON array of the
 * list's items, written beside the report a page at a time from the store, never the whole list
 * in memory, with a pause after each page so that `/health` keeps answering. The row counts and
 * SHA-256 of both files go into the signed HTML, so the signature covers them. A report of several
 * organizations names each row's organization (its slug): an `organization` column first in the
 * CSV, an `organization` field first in each JSON item; a report of one is the findings list's
 * export byte for byte, its organization named by the report.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { collections, organizationField } from '../../contracts/collections.js';
import type { ReportAppendixFile } from '../../contracts/console/reports.js';
import { csvLine } from '../../contracts/csv-cells.js';
import type { OneVersion } from '../store/derived/one-version.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { type ReportFilter, findingsQuery } from './report-filter.js';
import { reportSlices } from './report-findings.js';

/** Ids of the findings list read at a time: its keyset page, cheap beside the items. */
const idsPerPage = 2_000;

/**
 * Findings whose items are read and written between two looks at the clock: a few milliseconds
 * (medium, 2 cores). A page of 2,000 read and written in one go took 25 ms on a quiet machine,
 * and 150-570 ms at load 6, which `/health` waited.
 */
const findingsPerLook = 200;

/** The suffixes of the appendix files after the report's own file name (`report.html.findings.csv`). */
export const appendixSuffixes = { csv: '.findings.csv', json: '.findings.json' } as const;
export type AppendixFormat = keyof typeof appendixSuffixes;

/** Where a kept report's appendix files are, in the folder of appendices. */
export function appendixPaths(folder: string, reportId: string): Record<AppendixFormat, string> {
  const base = path.join(folder, `report-${reportId}.html`);
  return { csv: base + appendixSuffixes.csv, json: base + appendixSuffixes.json };
}

/** An appendix file's name in the folder of appendices: the report's id, and its format. */
const appendixFileName = /^report-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.html\.findings\.(?:csv|json)$/;

/**
 * Removes the appendix files of `reportIds` (a removed organization's technical reports). Called
 * after the store's durable write of the reports' removal: a crash between leaves files whose
 * report no longer exists, which {@link sweepOrphanAppendices} removes at the next open.
 */
export function removeAppendices(folder: string, reportIds: readonly string[]): void {
  for (const reportId of reportIds) {
    for (const file of Object.values(appendixPaths(folder, reportId))) fs.rmSync(file, { force: true });
  }
}

/**
 * Removes the appendix files whose report the store does not keep: those a crash left between an
 * organization's removal and its files', or while a report was made. Run when the store is
 * opened for writing, before any report is made: the data directory's lock keeps every other
 * writer out, so no file here is a report being made. Other files in the folder are left alone.
 * @returns the files removed
 */
function sweepOrphanAppendices(store: Store, folder: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const reportId = appendixFileName.exec(name)?.[1];
    if (reportId === undefined || store.reports.has(reportId)) continue;
    fs.rmSync(path.join(folder, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Removes what reports the store does not keep left behind (a crash while a report was made, or
 * between an organization's removal and its files'): their findings parts in the store, then their
 * appendix files ({@link sweepOrphanAppendices}). Run when the store is opened for writing, before
 * any report is made.
 * @returns the appendix files removed, and the number of reports whose findings parts were dropped
 */
export function sweepUnkeptReports(store: Store, folder: string): { files: string[]; findingParts: number } {
  const findingParts = store.reports.dropUnkeptFindings();
  return { files: sweepOrphanAppendices(store, folder), findingParts };
}

/** The data changed while the report was made (its figures or its appendix): it is not kept; making it again reads one version. */
export class ReportMovedError extends Error {
  constructor() {
    super('The findings changed while the report was made: make the report again');
  }
}

/** A file written through a stream, its bytes hashed and its rows counted on the way. */
class HashedFile {
  private readonly stream: fs.WriteStream;
  private readonly hash = createHash('sha256');
  rows = 0;

  constructor(readonly file: string) {
    this.stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  }

  /** Writes `text` (or its pieces, in order), waiting for the stream to drain when its buffer is full. */
  async write(text: string | readonly string[]): Promise<void> {
    const bytes = typeof text === 'string' ? Buffer.from(text) : encodePieces(text);
    // Encoded once for the hash and the file, which would each encode the string again.
    this.hash.update(bytes);
    if (!this.stream.write(bytes)) await once(this.stream, 'drain');
  }

  /** Closes the file, flushed; answers its row count and hash. */
  async close(): Promise<ReportAppendixFile> {
    const closed = once(this.stream, 'close');
    this.stream.end();
    await closed;
    return { name: path.basename(this.file), rows: this.rows, sha256: this.hash.digest('hex') };
  }

  /** Closes and removes a file that is not to be kept, once closed: a stream still opening would create it after. */
  async discard(): Promise<void> {
    const closed = this.stream.closed ? undefined : once(this.stream, 'close');
    this.stream.destroy();
    await closed;
    fs.rmSync(this.file, { force: true });
  }
}

/**
 * The UTF-8 bytes of `pieces` one after the other, each encoded straight into one buffer: the
 * text of a slice of findings is never one string. Built as one string a slice (300 kB of JSON,
 * 180 kB of CSV), the heap grew by 140 MiB over the appendix of `medium` before a full collection
 * freed it; written as pieces, by 45 MiB (docs/decisions/reports/a-technical-report-holds-no-turn-and-reads-one-version.md).
 */
function encodePieces(pieces: readonly string[]): Buffer {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
}

/**
 * Writes the appendix of a report of `organizations` with `filter` at `asOf` into `files`: each
 * organization's findings in turn, in the findings list's order with that filter, in time slices (TimeSlices)
 * with a pause between them.
 * @throws ReportMovedError when the store's items are written after `version` was taken (both files removed)
 */
export async function writeAppendix(
  store: Store,
  organizations: readonly Organization[],
  filter: ReportFilter,
  asOf: number,
  files: Record<AppendixFormat, string>,
  version: OneVersion,
): Promise<Record<AppendixFormat, ReportAppendixFile>> {
  const several = organizations.length > 1;
  const csvColumns = several ? collections.findings.csvColumnsOfOrganizations : collections.findings.csvColumns;
  const query = findingsQuery(filter.text)!;
  // The version is checked after each read of items, where it matters, not at the pauses.
  const slices = reportSlices();
  fs.mkdirSync(path.dirname(files.csv), { recursive: true, mode: 0o700 });
  // A write since the report's first read: no file is begun.
  if (!version.current) throw new ReportMovedError();
  const csv = new HashedFile(files.csv);
  const json = new HashedFile(files.json);
  try {
    await csv.write(csvLine(csvColumns.map((column) => column.header)));
    await json.write('[');
    for (const organization of organizations) {
      // The item's JSON with its organization first: `{"organization":"acme",` then the item's own fields.
      const organizationPrefix = several ? `{${JSON.stringify(organizationField)}:${JSON.stringify(organization.slug)},` : undefined;
      for await (const page of store.console.listAllIds(organization.rowId, 'findings', query, asOf, idsPerPage)) {
        for (let from = 0; from < page.length; from += findingsPerLook) {
          const items = await store.consoleItems.get('findings', organization.rowId, page.slice(from, from + findingsPerLook), asOf);
          // Items of another version than the report's figures would not be the findings they counted.
          if (!version.current) throw new ReportMovedError();
          const csvLines: string[] = [];
          const jsonLines: string[] = [];
          for (const item of items) {
            const parsed = JSON.parse(item) as Record<string, unknown>;
            if (several) parsed[organizationField] = organization.slug;
            csvLines.push(csvLine(csvColumns.map((column) => column.value(parsed))));
            jsonLines.push(json.rows === 0 ? '\n' : ',\n', organizationPrefix === undefined ? item : organizationPrefix + item.slice(1));
            csv.rows++;
            json.rows++;
          }
          await csv.write(csvLines);
          await json.write(jsonLines);
          await slices.pause();
        }
      }
    }
    await json.write('\n]\n');
    return { csv: await csv.close(), json: await json.close() };
  } catch (error) {
    await Promise.all([csv.discard(), json.discard()]);
    throw error;
  }
}

/** An appendix file a report's HTML names, as `verify` found it beside the report. */
export interface AppendixCheck {
  file: string;
  rows: number;
  /** `ok`, `changed` (its SHA-256 is not the one the signed HTML states) or `absent`. */
  state: 'ok' | 'changed' | 'absent';
}

/** The appendix rows of a technical report's HTML (technical-report-html.ts): its file names' suffixes, rows and hashes. */
const appendixRow = /data-appendix-file="[^"]*?(\.findings\.(?:csv|json))" data-rows="(\d+)" data-sha256="([0-9a-f]{64})"/g;

/**
 * Checks the appendix files a report's HTML names, beside `reportFile` (FILE.findings.csv,
 * FILE.findings.json), against the hashes the HTML states; none for an executive report. The
 * files are hashed as streams: an appendix of a million findings is never read whole.
 */
export async function checkAppendix(html: Buffer, reportFile: string): Promise<AppendixCheck[]> {
  const checks: AppendixCheck[] = [];
  for (const [, suffix, rows, sha256] of html.toString('utf8').matchAll(appendixRow)) {
    const file = reportFile + suffix!;
    if (!fs.existsSync(file)) {
      checks.push({ file, rows: Number(rows), state: 'absent' });
      continue;
    }
    const hash = createHash('sha256');
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
    checks.push({ file, rows: Number(rows), state: hash.digest('hex') === sha256 ? 'ok' : 'changed' });
  }
  return checks;
}
