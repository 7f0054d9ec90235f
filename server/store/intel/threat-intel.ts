import type { ThreatIntelImport, ThreatIntelImportAnswer, ThreatIntelKind } from '../../../contracts/console/threat-intel.js';
import type { Database } from '../engine/database.js';
import type { ChangeKind, RecordWrite, SettledRecordWrite } from '../derived/change-kinds.js';
import { TimeSlices } from '../derived/time-slices.js';
import { RowsPerWrite } from '../inventory/rows-per-write.js';
import { type EpssFile, rowScoring } from './epss-file.js';
import { EpssScores } from './epss-scores.js';
import { readIntelFile } from './intel-file.js';
import type { VulnrichmentRecord } from './vulnrichment-file.js';
import { type IntelBefore, IntelChanges } from './intel-changes.js';
import { IntelFigures } from './intel-figures.js';
import { IntelImports } from './intel-imports.js';
import { KevEntries } from './kev-entries.js';
import { VulnrichmentEntries } from './vulnrichment-entries.js';

/** How many EPSS imports keep their figures as history (for a 7- and 30-day change per CVE). */
export const epssImportsKept = 30;

/** How the store writes for intelligence (store.ts); each write names its kinds, {@link intelWrite}. */
export interface ThreatIntelWrites {
  /** A durable write (Store.write). */
  write: RecordWrite;
  /** A write logged with a later one (Store.write, not durable). */
  held: RecordWrite;
  /** A held write logged as its pages, not its statements: a piece of an import that changes most rows (Store.write, asPages). */
  heldAsPages: RecordWrite;
  /** A write that resolves once it and those before it are durable, fsynced off the thread (Store.writeSettled). */
  settled: SettledRecordWrite;
}

/**
 * An EPSS import that changes more than this share of its file's rows logs its pieces as pages:
 * a changed row's statement is about 35 bytes in a log of statements, a stored row about 27 in
 * the table's pages, which changes spread over the file all rewrite; and the statements of a
 * whole file would take past the replay budget, then logged again as pages by a fold
 * (docs/decisions/exploit-intelligence/current-epss-figures-change-only-where-they.md).
 */
const changedShareAsPages = 0.25;

/** What every write of intelligence changes: the imports, the figures, the catalogs, the settings. */
const intelWrite: readonly ChangeKind[] = ['threat-intel'];

/**
 * Exploit intelligence imported from files (docs/decisions/README.md#exploit-intelligence): the
 * imports, the current EPSS figures and their history, the entries of the current KEV
 * catalogs. An import reads the file whole before it writes anything, so that a refused file
 * changes nothing; an EPSS file of 400,000 rows is read and written in pieces that hold the
 * thread answering requests about {@link TimeSlices}' 20 ms each. Imports run one at a time.
 */
export class ThreatIntel {
  readonly imports: IntelImports;
  readonly epss: EpssScores;
  readonly kev: KevEntries;
  /** Each CVE's SSVC values from CISA's Vulnrichment records. */
  readonly vulnrichment: VulnrichmentEntries;
  /** What each import changed for each organization, and the threshold of EPSS crossings. */
  readonly changes: IntelChanges;
  readonly figures: IntelFigures;
  /** The import under way, which the next one waits for. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    db: Database,
    private readonly writes: ThreatIntelWrites,
    private readonly clock: () => number,
  ) {
    this.imports = new IntelImports(db);
    this.epss = new EpssScores(db);
    this.kev = new KevEntries(db);
    this.vulnrichment = new VulnrichmentEntries(db);
    this.changes = new IntelChanges(db, clock, (work) => writes.write(intelWrite, work));
    this.figures = new IntelFigures(db);
  }

  /** Every import, the newest first. */
  list(): ThreatIntelImport[] {
    return this.imports.list();
  }

  /**
   * Imports an intelligence file (gzip or plain, its kind recognised by its content), after the
   * imports under way. A file older than the current one of its kind is recorded (an EPSS
   * file's figures kept as history) and does not replace the current figures; a file imported
   * before (same kind and SHA-256) changes nothing and answers its record. Rejects with an
   * IntelFileError, having changed nothing, a file it refuses.
   */
  importFile(bytes: Uint8Array): Promise<ThreatIntelImportAnswer> {
    const imported = this.queue.then(() => this.importNow(bytes));
    this.queue = imported.catch(() => undefined);
    return imported;
  }

  private async importNow(bytes: Uint8Array): Promise<ThreatIntelImportAnswer> {
    const slices = new TimeSlices(() => undefined);
    const file = await readIntelFile(bytes, slices);
    const kind: ThreatIntelKind = file.kind;
    const earlier = this.imports.finishedWith(kind, file.sha256);
    if (earlier) return { ...earlier, already_imported: true };
    const started = {
      kind,
      sha256: file.sha256,
      importedAt: new Date(this.clock()).toISOString(),
      ...(file.kind === 'epss'
        ? { sourceDate: file.epss.scoreDate, version: file.epss.modelVersion, rows: file.epss.rows }
        : file.kind === 'vulnrichment'
          ? { sourceDate: file.vulnrichment.sourceDate, version: file.vulnrichment.version, rows: file.vulnrichment.records.length, report: file.vulnrichment.report }
          : { sourceDate: file.catalog.sourceDate, version: file.catalog.version, rows: file.catalog.entries.length }),
    };
    const current = this.imports.current(kind);
    // A file as new as the current one (the same day, imported again) replaces it: the later import wins. Vulnrichment
    // records are per CVE: every import writes its own, and is the current one.
    const replaces = current === undefined || started.sourceDate >= current.source_date || kind === 'vulnrichment';
    // Every write but the last is held: a crash keeps a prefix of them, never a later one without an earlier, so the record
    // of an import comes first and an import the process was stopped during stays unfinished (and is shown as such).
    // What was current, to record what this import changed once it is written (intel-changes.ts).
    const before: IntelBefore | undefined =
      !replaces || file.kind === 'vulnrichment'
        ? undefined
        : file.kind === 'epss'
        ? this.changes.epssBefore(current, this.epss.namedCveKeys())
        : this.changes.kevBefore(file.catalog.source, current);
    const id = this.writes.held(intelWrite, () => {
      // The same file again after an import of it was interrupted: this one takes its place.
      this.epss.dropHistory(this.imports.dropInterrupted(kind, file.sha256));
      return this.imports.start(started);
    });
    if (file.kind === 'epss') await this.writeEpss(id, file.epss, replaces, slices);
    else if (file.kind === 'vulnrichment') await this.writeVulnrichment(id, file.vulnrichment.records, slices);
    else if (replaces) this.writes.held(intelWrite, () => this.kev.replace(file.catalog.source, file.catalog.entries));
    // What it changed, read while its figures are held and before its last write, in slices.
    const changed = before && (await this.changes.prepare({ id, kind, source_date: started.sourceDate, version: started.version }, before, () => slices.pause()));
    const finished = await this.writes.settled(intelWrite, () => {
      if (file.kind === 'epss') this.epss.dropHistory(this.imports.epssImportsPast(epssImportsKept));
      const record = this.imports.finish(id, kind, replaces);
      if (changed) this.changes.record(changed);
      return record;
    });
    return { ...finished, already_imported: false };
  }

  /** Writes Vulnrichment records in held pieces of 2,000, pausing between them. */
  private async writeVulnrichment(id: number, records: readonly VulnrichmentRecord[], slices: TimeSlices): Promise<void> {
    for (let from = 0; from < records.length; from += 2_000) {
      this.writes.held(intelWrite, () => this.vulnrichment.write(id, records.slice(from, from + 2_000)));
      await slices.pause();
    }
  }

  /**
   * Writes an EPSS file's figures in pieces, as many rows a write as keep it near 10 ms
   * (RowsPerWrite): the history of the CVEs some inventory names, and, when the file replaces
   * the current one, the current figures of the rows that are new or changed
   * ({@link unchangedRows}, which deletes those of CVEs the file no longer scores). The
   * pieces are held writes, logged in slices by the settled write that finishes the import:
   * as statements when few rows change, as pages past {@link changedShareAsPages} of them.
   */
  private async writeEpss(id: number, file: EpssFile, replaces: boolean, slices: TimeSlices): Promise<void> {
    const unchanged = replaces ? await this.unchangedRows(file, slices) : undefined;
    const changedRows = unchanged ? file.rows - unchanged.reduce((sum, same) => sum + same, 0) : 0;
    const write = changedRows > file.rows * changedShareAsPages ? this.writes.heldAsPages : this.writes.held;
    // The rows kept as history, marked by looking up the few hundred CVEs named rather than each of the file's rows in a set.
    const named = new Uint8Array(file.rows);
    for (const key of this.epss.namedCveKeys()) {
      const row = rowScoring(file, key);
      if (row >= 0) named[row] = 1;
    }
    const rowsPerWrite = new RowsPerWrite(500, 8_000, 10);
    for (let from = 0; from < file.rows; ) {
      const to = Math.min(file.rows, from + rowsPerWrite.size);
      const kept: number[] = [];
      const changed: number[] = [];
      for (let index = from; index < to; index++) {
        if (named[index] === 1) kept.push(index);
        if (unchanged && unchanged[index] === 0) changed.push(index);
      }
      const started = performance.now();
      write(intelWrite, () => {
        this.epss.writeHistory(id, file.keys, file.epss, file.percentile, kept);
        this.epss.writeCurrent(file.keys, file.epss, file.percentile, changed);
      });
      rowsPerWrite.took(performance.now() - started);
      from = to;
      await slices.pause();
    }
  }

  /**
   * A pass over the current figures in key order, 5,000 rows a slice, against the file's rows
   * by key (its index, constant time a row): answers which rows of the file hold figures equal
   * to the stored ones (1), so that only the others are written, and deletes the figures of
   * CVEs the file no longer scores as it goes. An import's writes, and a log of its statements
   * (which records each bound value), then follow the rows it changes, not the rows of the file
   * (docs/decisions/exploit-intelligence/current-epss-figures-change-only-where-they.md).
   */
  private async unchangedRows(file: EpssFile, slices: TimeSlices): Promise<Uint8Array> {
    const unchanged = new Uint8Array(file.rows);
    for (let after = -1; ; ) {
      const stored = this.epss.currentAfter(after, 5_000);
      if (stored.length === 0) break;
      const dropped: number[] = [];
      for (let at = 0; at < stored.length; at++) {
        const [key, epss, percentile] = stored[at]!;
        const row = rowScoring(file, key);
        if (row < 0) dropped.push(key);
        else if (file.epss[row] === epss && file.percentile[row] === percentile) unchanged[row] = 1;
      }
      if (dropped.length > 0) this.writes.held(intelWrite, () => this.epss.deleteCurrent(dropped));
      after = stored.at(-1)![0];
      await slices.pause();
    }
    return unchanged;
  }
}
