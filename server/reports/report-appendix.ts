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
import { consoleItems } from '../store/console/console-items.js';
import { OneVersion } from '../store/derived/one-version.js';
import { nextTurn } from '../store/engine/next-turn.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import { type ReportFilter, findingsQuery } from './report-filter.js';

/** Findings read and written between two pauses: their CSV and JSON take about 25 ms (medium, 2 cores). */
const findingsPerPage = 2_000;

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
export function sweepOrphanAppendices(store: Store, folder: string): string[] {
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

/** The data changed while the appendix was written: the report is not kept; making it again reads one version. */
export class AppendixMovedError extends Error {}

/** A file written through a stream, its bytes hashed and its rows counted on the way. */
class HashedFile {
  private readonly stream: fs.WriteStream;
  private readonly hash = createHash('sha256');
  rows = 0;

  constructor(readonly file: string) {
    this.stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  }

  /** Writes `text`, waiting for the stream to drain when its buffer is full. */
  async write(text: string): Promise<void> {
    this.hash.update(text);
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  /** Closes the file, flushed; answers its row count and hash. */
  async close(): Promise<ReportAppendixFile> {
    const closed = once(this.stream, 'close');
    this.stream.end();
    await closed;
    return { name: path.basename(this.file), rows: this.rows, sha256: this.hash.digest('hex') };
  }

  /** Closes and removes a file that is not to be kept. */
  discard(): void {
    this.stream.destroy();
    fs.rmSync(this.file, { force: true });
  }
}

/**
 * Writes the appendix of a report of `organizations` with `filter` at `asOf` into `files`: each
 * organization's findings in turn, in the findings list's order with that filter.
 * @throws AppendixMovedError when the store's items are written meanwhile (both files removed)
 */
export async function writeAppendix(
  store: Store,
  organizations: readonly Organization[],
  filter: ReportFilter,
  asOf: number,
  files: Record<AppendixFormat, string>,
): Promise<Record<AppendixFormat, ReportAppendixFile>> {
  const several = organizations.length > 1;
  const csvColumns = several ? collections.findings.csvColumnsOfOrganizations : collections.findings.csvColumns;
  const query = findingsQuery(filter.text)!;
  const version = new OneVersion(store.changes, [consoleItems]);
  fs.mkdirSync(path.dirname(files.csv), { recursive: true, mode: 0o700 });
  const csv = new HashedFile(files.csv);
  const json = new HashedFile(files.json);
  try {
    await csv.write(csvLine(csvColumns.map((column) => column.header)));
    await json.write('[');
    for (const organization of organizations) {
      // The item's JSON with its organization first: `{"organization":"acme",` then the item's own fields.
      const organizationPrefix = several ? `{${JSON.stringify(organizationField)}:${JSON.stringify(organization.slug)},` : undefined;
      for await (const ids of store.console.listAllIds(organization.rowId, 'findings', query, asOf, findingsPerPage)) {
        const items = await store.consoleItems.get('findings', organization.rowId, ids, asOf);
        if (!version.current) throw new AppendixMovedError('The findings changed while the report\'s appendix was written: make the report again');
        let csvText = '';
        let jsonText = '';
        for (const item of items) {
          const parsed = JSON.parse(item) as Record<string, unknown>;
          if (several) parsed[organizationField] = organization.slug;
          csvText += csvLine(csvColumns.map((column) => column.value(parsed)));
          jsonText += `${json.rows === 0 ? '' : ','}\n${organizationPrefix === undefined ? item : organizationPrefix + item.slice(1)}`;
          csv.rows++;
          json.rows++;
        }
        await csv.write(csvText);
        await json.write(jsonText);
        await nextTurn();
      }
    }
    await json.write('\n]\n');
    return { csv: await csv.close(), json: await json.close() };
  } catch (error) {
    csv.discard();
    json.discard();
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
