import path from 'node:path';
import { ChangeLogWriter, logFile, logFormat } from './change-log.js';
import { checkpointSteps, type LogToFold, runCheckpoint, runCheckpointInSlices } from './checkpoint.js';
import { files } from './engine-files.js';
import { removeFileSteps, runFileSteps, syncFolderSteps } from './file-steps.js';
import type { FileWriteSink } from './file-write-tap.js';
import { HeldPages } from './held-pages.js';
import { needsHeaderOfThisBuild, newGeneration, type SnapshotHeader, writeSnapshotHeaderSteps } from './snapshot-header.js';
import type { StoreImage } from './store-image.js';
import { nextTurn } from './next-turn.js';
import { deflatePage, SnapshotBase } from './page-delta.js';

/** When a checkpoint runs: past this share of the snapshot's size in logs, or this many bytes, whichever is larger. */
const checkpointShare = 0.25;
const checkpointMinimumBytes = 16 * 2 ** 20;

/** The bytes of change logs past which a checkpoint starts, for a snapshot of `snapshotBytes`. */
export function checkpointThresholdBytes(snapshotBytes: number): number {
  return Math.max(checkpointMinimumBytes, snapshotBytes * checkpointShare);
}
/**
 * Pages of writes that need not be durable are held (held-pages.ts) up to this many bytes; past
 * it the least recently written are handed to the log a slice per turn of the event loop.
 */
const holdBytes = 128 * 2 ** 20;
/** Past this, at a commit, the excess is handed on at once: a bulk write outran the slices. */
const holdMostBytes = 192 * 2 ** 20;
/** Held pages handed on in one turn of the event loop. */
const sliceBytes = 4 * 2 ** 20;
/**
 * The statements logged since the last fold and the pages logged as deltas take at most this
 * long to replay: the bound on what the logs add to cold start (1.2 s on `large` without a log,
 * against the 3 s target). Statements an open replayed count what their replay took; those
 * written since, what they took when recorded (on `large`, about what an open then takes to
 * replay them). Past it, a fold of the statements' pages follows them
 * (docs/decisions/the-engine-sqljs-on-disk/a-log-of-statements.md, a-folds-pages-are-deltas.md).
 */
export const replayBudgetMicroseconds = 1_500_000;
/**
 * What an open takes to apply one page logged as a delta (page-delta.ts): 538 ms for the 61,367
 * of three days of 1 % syncs of `large`, about 9 µs each. The deltas count against the replay
 * budget with the statements.
 */
const deltaReplayMicroseconds = 10;
/**
 * Past this share of the replay budget in deltas, a checkpoint runs: deltas are taken against
 * the snapshot, so only a checkpoint makes them fewer, and the statements need room beside them.
 */
const deltaShareOfBudget = 0.8;

/** A transaction's writes as the database recorded them, offered to {@link DurableFile.commit}. */
export interface RecordedWrites {
  /**
   * Its statements, each a statement frame's body (statement-codec.ts); undefined when it must
   * be logged as pages (a migration, a schema change, VACUUM, a truncation of the file).
   */
  statements: Buffer[] | undefined;
  /** What they took to run. */
  microseconds: number;
}

/**
 * The database file on disk: a snapshot and change logs (docs/decisions/the-engine-sqljs-on-disk/checkpoints-write-in-place.md, "Checkpoints write
 * in place"). The tap gives it SQLite's writes; {@link commit} makes them durable at each point
 * where no transaction is open, as the transaction's statements when they are fewer bytes than
 * its pages, else as pages (docs/decisions/the-engine-sqljs-on-disk/a-log-of-statements.md).
 * Pages logged after statements are preceded by a fold: every page written since the last one,
 * as the file now holds it, for a replay that gave the same rows in other bytes, each as a
 * delta against the snapshot while no checkpoint writes it (page-delta.ts).
 * Checkpoints fold the logs into the snapshot, between requests, when the logs pass a share of
 * the snapshot or the deltas a share of {@link replayBudgetMicroseconds}; past that budget the
 * statements since the last fold are folded.
 */
export class DurableFile implements FileWriteSink {
  private current: ChangeLogWriter;
  /** SQLite's writes on their way to `current`, held while writes need not be durable one by one. */
  private readonly held: HeldPages;
  /** Held pages are being handed on a slice per turn. */
  private handingOn = false;
  /** A fold's frame is in the open transaction, its pages still being handed on a slice per turn ({@link settle}). */
  private folding = false;
  /** Those slices, until the last. */
  private foldUnderWay: Promise<void> | undefined;
  /** Logs written before `current`, oldest first, waiting for a checkpoint. */
  private folded: (LogToFold & { size: number })[];
  /** The snapshot generation's salt, which every log carries. */
  private readonly salt: string;
  /** The sequence of the next log. */
  private nextNumber: number;
  private checkpointing: Promise<void> | undefined;
  /** The logs of the checkpoint under way, and whether {@link checkpointNow} stopped it. */
  private running: { logs: LogToFold[]; stopped: boolean } | undefined;
  /** The logs passed the threshold while a checkpoint ran: another follows it. */
  private checkpointAgain = false;
  private closed = false;
  /** Pages statements changed since the last fold: the log has their statements, not their bytes. */
  private readonly statementPages: HeldPages;
  /** What replaying the statements logged since the last fold would take. */
  private replayMicroseconds = 0;
  /** Held pages include some of a transaction logged as pages: the next one cannot be logged as statements. */
  private heldFromPageCommits = false;
  /** Bytes of pages SQLite wrote since the last commit, and whether it cut the file meanwhile. */
  private transactionPageBytes = 0;
  private truncatedInTransaction = false;
  /** The file's size as SQLite's writes made it (what a fold records). */
  private size: number;
  /** Pages whose last version in the logs is a delta: logged whole before a checkpoint writes the snapshot they were taken against. */
  private readonly deltaPages: Set<number>;
  /** The size of the pages logged as deltas. */
  private deltaPageBytes = 0;
  /** The snapshot file as on disk, which a delta is taken against. */
  private readonly base: SnapshotBase;
  /** The snapshot has been fsynced since it was last written (by a checkpoint, or before this process opened it). */
  private baseIsDurable = false;
  /** The checkpoint's first fold is logging the delta pages whole. */
  private loggingDeltasWhole = false;

  /**
   * Takes over what the open found (only the lock holder opens one of these): removes the logs
   * the snapshot holds already, oldest first; keeps aside the ones past a gap; starts the
   * snapshot's generation when it has no header (a new store, or one from before headers);
   * cuts off the torn tails of the logs replayed, and starts a new log for this process's writes.
   */
  constructor(
    private readonly databaseFile: string,
    found: Pick<StoreImage, 'header' | 'base' | 'logs' | 'stale' | 'setAside' | 'fileBytes' | 'deltaPages'>,
    /** Reads the in-memory file's bytes at an offset (FileWriteTap.readAt). */
    readAt: (offset: number, into: Uint8Array) => void,
    private readonly onCheckpointError: (error: unknown) => void,
    /**
     * Held pages stay held however many they are, until a durable commit or {@link settle} logs
     * each once: for a process that answers no request while it writes (a command line), where
     * no write waits behind a large hand-on. Otherwise past {@link holdBytes} the least recently
     * written are logged a slice per turn, and a page written again is logged again.
     */
    private readonly holdWithoutBound = false,
  ) {
    for (const file of found.stale) runFileSteps(removeFileSteps(file));
    for (const file of found.setAside) files.renameSync(file, `${file}.unreplayed`);
    if (found.setAside.length > 0) runFileSteps(syncFolderSteps(path.dirname(databaseFile)));
    const header: SnapshotHeader = found.header ?? newGeneration(found.base);
    if (needsHeaderOfThisBuild(found.header)) runFileSteps(writeSnapshotHeaderSteps(databaseFile, header));
    this.salt = header.salt;
    for (const log of found.logs) if (log.size > log.committedBytes) files.truncateSync(log.file, log.committedBytes);
    this.folded = found.logs.map((log) => ({ file: log.file, sequence: log.number, size: log.committedBytes }));
    this.nextNumber = found.base + found.logs.length + 1;
    this.current = this.startLog();
    this.size = found.fileBytes;
    this.base = SnapshotBase.ofFile(databaseFile);
    this.deltaPages = new Set(found.deltaPages.offsets);
    this.deltaPageBytes = found.deltaPages.pageBytes;
    this.statementPages = new HeldPages(
      {
        write: (offset, bytes) => this.logFoldedPages(offset, bytes),
        truncate: (size) => {
          this.forgetDeltasFrom(size);
          this.current.truncate(size);
        },
      },
      readAt,
    );
    const pagesToLog = {
      write: (offset: number, bytes: Uint8Array) => {
        this.foldFirst();
        this.forgetDeltas(offset, bytes.length);
        this.current.write(offset, bytes);
      },
      truncate: (size: number) => {
        this.foldFirst();
        this.forgetDeltasFrom(size);
        this.current.truncate(size);
      },
    };
    this.held = new HeldPages(pagesToLog, readAt);
  }

  write(offset: number, bytes: Uint8Array): void {
    if (this.held.bytes === 0) this.heldFromPageCommits = false;
    this.transactionPageBytes += bytes.length;
    this.size = Math.max(this.size, offset + bytes.length);
    this.held.write(offset, bytes);
  }

  truncate(size: number): void {
    this.truncatedInTransaction = true;
    // A fold this truncation makes first records the file as it was before it.
    this.held.truncate(size);
    this.size = size;
  }

  /**
   * Before the first page frame that follows statements: a fold, the size of the file and
   * every page statements changed since the last fold, read from the file as it is now. The
   * pages a replay of those statements would make are the same rows in other bytes, on which
   * the page frames that follow would not fit; an open applies the fold instead, and skips the
   * statements before it. Always the first frame of its transaction: frames enter a
   * transaction after statements only through here.
   */
  private foldFirst(): void {
    if (!this.folding) {
      if (this.statementPages.bytes === 0) return;
      this.current.fold(this.size);
    }
    // A fold begun in slices is ended here with the rest of its pages, before anything else reaches the log.
    this.statementPages.handOn();
    this.folding = false;
    this.replayMicroseconds = 0;
  }

  /**
   * {@link foldFirst} a slice per turn of the event loop: its pages (tens of MiB after a
   * report's million ids kept as statements) read and logged at once held the thread 210 ms.
   * Between two slices the open transaction has frames, so no write is logged as statements,
   * and whatever else reaches the log (a write's pages, a commit) ends the fold first. A fold
   * under way is waited for, not ended at once: a settle right after a sync's last part would
   * otherwise end the fold that part began (past the replay budget) in one turn.
   */
  private foldInSlices(): Promise<void> {
    if (this.folding) return this.foldUnderWay ?? Promise.resolve();
    if (this.statementPages.bytes === 0) return Promise.resolve();
    this.current.fold(this.size);
    this.folding = true;
    this.foldUnderWay = (async () => {
      while (this.folding && this.statementPages.bytes > 0 && !this.closed) {
        this.statementPages.handOn(sliceBytes);
        await nextTurn();
      }
    })();
    return this.foldUnderWay;
  }

  /**
   * Logs pages of a fold (a run of adjacent ones, read from the in-memory file): each as a delta
   * against the snapshot while no checkpoint is writing it, a page at a time, unless the delta is
   * no smaller; whole otherwise. About 18 µs a page on `large` (deflate at level 1), and a tenth
   * to a twentieth of its bytes.
   */
  private logFoldedPages(offset: number, run: Uint8Array): void {
    const pageBytes = this.statementPages.pageSize;
    if (!this.foldsAsDeltas() || this.loggingDeltasWhole || pageBytes === 0 || run.length % pageBytes !== 0 || offset % pageBytes !== 0) {
      this.forgetDeltas(offset, run.length);
      this.current.write(offset, run);
      return;
    }
    if (!this.baseIsDurable) {
      this.base.sync();
      this.baseIsDurable = true;
    }
    const base = this.base.read(offset, run.length);
    for (let at = 0; at < run.length; at += pageBytes) {
      const page = run.subarray(at, at + pageBytes);
      const deflated = deflatePage(page, base.subarray(at, at + pageBytes));
      if (deflated.length >= pageBytes) {
        this.deltaPages.delete(offset + at);
        this.current.write(offset + at, page);
      } else {
        this.deltaPageBytes = pageBytes;
        this.deltaPages.add(offset + at);
        this.current.delta(offset + at, pageBytes, deflated);
      }
    }
  }

  /** The pages of `length` bytes at `offset` are logged whole next: their deltas no longer count. */
  private forgetDeltas(offset: number, length: number): void {
    if (this.deltaPages.size === 0) return;
    const unit = this.deltaPageBytes;
    for (let page = offset - (offset % unit); page < offset + length; page += unit) this.deltaPages.delete(page);
  }

  /** The file was cut to `size`: the pages past it are gone, and their deltas with them. */
  private forgetDeltasFrom(size: number): void {
    for (const page of this.deltaPages) if (page + this.deltaPageBytes > size) this.deltaPages.delete(page);
  }

  /** Whether a fold now would log its pages as deltas: not while a checkpoint writes the snapshot. */
  private foldsAsDeltas(): boolean {
    return this.running === undefined;
  }

  /**
   * Past the replay budget, a fold of the statements' pages as deltas: an open then applies the
   * deltas instead of replaying the statements. Logging the transaction that passed the budget
   * as pages instead wrote its 150 MiB of pages whole (a 1 % sync of `large`), where its
   * statements and the fold's deltas took 2 and about 15 MiB. The fold is a settle's, a slice
   * per turn, committed in the thread pool (a fold of a day's pages takes about a second of
   * deflating); a commit, a checkpoint or the close meanwhile ends it at once.
   */
  private foldPastBudget(): void {
    if (this.replayCost() <= replayBudgetMicroseconds || this.statementPages.bytes === 0 || this.folding) return;
    this.settle().catch(this.onCheckpointError);
  }

  /** What replaying the log since the snapshot would take: the statements since the last fold, and the pages logged as deltas. */
  private replayCost(): number {
    return this.replayMicroseconds + this.deltaPages.size * deltaReplayMicroseconds;
  }

  /** Ends a fold begun in slices, if one is: a commit never closes a fold without all its pages. */
  private endFold(): void {
    if (this.folding) this.foldFirst();
  }

  /**
   * Takes what a replay of recorded statements at open wrote: pages the log has statements
   * for, to fold before pages are logged next, never logged again; and what the replay took,
   * which the next open will spend again, against the replay budget.
   */
  replayed(microseconds: number): void {
    this.held.moveTo(this.statementPages);
    this.replayMicroseconds += microseconds;
    this.transactionPageBytes = 0;
  }

  /**
   * Whether the transaction's writes are logged as its statements: fewer bytes than its pages,
   * and none of them on their way to the log. While a checkpoint writes the snapshot (a fold
   * then logs whole pages), also within what an open may spend replaying the log
   * ({@link replayBudgetMicroseconds}): past it the transaction is logged as pages, after a
   * fold, which starts the budget again. Otherwise a fold follows them ({@link foldPastBudget}).
   */
  private logsAsStatements(writes: RecordedWrites | undefined): boolean {
    const statements = writes?.statements;
    if (!statements || this.heldFromPageCommits || this.truncatedInTransaction || this.current.hasOpenFrames) return false;
    // Past the budget, statements are still logged when their fold can follow as deltas (foldPastBudget).
    if (!this.foldsAsDeltas() && this.replayCost() + writes.microseconds > replayBudgetMicroseconds) return false;
    let bytes = 0;
    for (const statement of statements) bytes += statement.length + logFormat.statementHeaderBytes;
    return bytes <= this.transactionPageBytes;
  }

  /**
   * Whether a transaction starting now could be logged as its statements: not while pages
   * committed before it are held (they go first, as pages), nor while a transaction's frames are
   * open, nor while a checkpoint writes the snapshot once the log has used the replay budget. When it
   * cannot, the database does not encode its statements for nothing: a full sync's staging
   * spent about 7 % of its CPU so on `large`.
   */
  mayLogStatements(): boolean {
    return !(this.heldFromPageCommits && this.held.bytes > 0) && !this.current.hasOpenFrames && (this.foldsAsDeltas() || this.replayCost() < replayBudgetMicroseconds);
  }

  /**
   * Closes a transaction of the log; call where no transaction is open. A durable commit is on
   * disk when this returns, with everything before it. One that is not (a sync's staged pages,
   * which a crash may lose: the sync stages again) leaves its pages held, to be logged once each
   * with the next durable commit, by {@link settle}, or a slice per turn past {@link holdBytes}.
   */
  commit({ durable = true, writes }: { durable?: boolean; writes?: RecordedWrites } = {}): void {
    const asStatements = this.logsAsStatements(writes);
    this.transactionPageBytes = 0;
    this.truncatedInTransaction = false;
    if (asStatements) {
      this.held.moveTo(this.statementPages);
      // A transaction rolled back: the pages it spilled were written back as they were.
      if (writes!.statements!.length === 0) return;
      for (const statement of writes!.statements!) this.current.statement(statement);
      this.current.duration(writes!.microseconds);
      this.replayMicroseconds += writes!.microseconds;
      this.afterLogCommit(this.current.commit({ durable }));
      this.foldPastBudget();
      return;
    }
    if (durable) {
      this.held.handOn();
      this.endFold();
      this.afterLogCommit(this.current.commit());
      return;
    }
    this.heldFromPageCommits = this.held.bytes > 0;
    if (this.holdWithoutBound) return;
    if (this.held.bytes > holdMostBytes) this.held.handOn(this.held.bytes - holdBytes);
    if (this.held.bytes > holdBytes) this.handOnInSlices();
  }

  /**
   * Hands every held page to the log a slice per turn of the event loop, then commits them and
   * fsyncs the log in the thread pool: the next durable write, or checkpoint, then has little to
   * log or fsync at once.
   */
  async settle(): Promise<void> {
    // The held pages follow a fold of the statements' pages, itself in slices; so does a fold past the replay budget.
    if (this.held.bytes > 0 || this.replayCost() > replayBudgetMicroseconds) await this.foldInSlices();
    // Writes go on meanwhile: after twice what was held, what is left is handed on at once.
    let slices = Math.ceil((2 * this.held.bytes) / sliceBytes);
    while (this.held.bytes > 0 && slices-- > 0 && !this.closed) {
      this.held.handOn(sliceBytes);
      await nextTurn();
    }
    if (this.closed) return;
    this.held.handOn();
    this.endFold();
    const log = this.current;
    this.afterLogCommit(log.commit({ durable: false }));
    await log.syncOffThread();
  }

  private handOnInSlices(): void {
    if (this.handingOn) return;
    this.handingOn = true;
    const step = () => {
      if (this.closed || this.held.bytes <= holdBytes) {
        this.handingOn = false;
        return;
      }
      try {
        this.held.handOn(sliceBytes);
      } catch (error) {
        // The pages stay held; the next commit meets the error again, and the database then
        // refuses writes (the log writer refuses all after a failed write).
        this.handingOn = false;
        this.onCheckpointError(error);
        return;
      }
      void nextTurn().then(step);
    };
    void nextTurn().then(step);
  }

  private afterLogCommit(committed: boolean): void {
    if (!committed) return;
    if (this.checkpointDue()) {
      if (this.checkpointing) this.checkpointAgain = true;
      else void this.checkpoint();
    }
  }

  /**
   * Folds the logs into the snapshot, a slice at a time; writes meanwhile go to a new log.
   * Resolves when done (a checkpoint already running is waited for, then another runs).
   */
  async checkpoint(): Promise<void> {
    await this.settle();
    while (this.checkpointing) await this.checkpointing;
    if (this.closed) return;
    this.checkpointing = (async () => {
      const logs = this.takeLogs();
      const run = { logs, stopped: false };
      this.running = run;
      try {
        await runCheckpointInSlices(checkpointSteps(this.databaseFile, logs, this.salt), () => run.stopped);
        // Its fsync made the snapshot durable (unless stopped: checkpointNow then ends the work).
        if (!run.stopped) this.baseIsDurable = true;
      } catch (error) {
        // The logs stay, and are replayed at the next open: nothing is lost.
        this.folded.unshift(...logs.map((log) => ({ ...log, size: 0 })));
        throw error;
      }
    })()
      .catch(this.onCheckpointError)
      .finally(() => {
        this.checkpointing = undefined;
        this.running = undefined;
        if (this.checkpointAgain && !this.closed) {
          this.checkpointAgain = false;
          void this.checkpoint();
        }
      });
    await this.checkpointing;
  }

  /**
   * Folds the logs into the snapshot now, on this thread (after a migration, at close). A
   * checkpoint under way is stopped between two of its slices and its logs folded here with the
   * rest, oldest first: folding a log again is harmless, and one checkpoint writing an older
   * page over a newer one's is not.
   */
  checkpointNow(): void {
    const stoppedLogs = this.running?.logs ?? [];
    if (this.running) this.running.stopped = true;
    runCheckpoint(checkpointSteps(this.databaseFile, [...stoppedLogs, ...this.takeLogs()], this.salt));
    this.baseIsDurable = true;
  }

  /**
   * Makes held writes durable and closes the log; checkpoints only when one is due or under way
   * (a command line's process would otherwise fold its statements into pages at every run).
   * When the log cannot take the held writes, it is closed all the same, without a
   * checkpoint, and the error thrown.
   */
  close(): void {
    if (this.closed) return;
    let failed: unknown;
    try {
      this.commit();
    } catch (error) {
      failed = error;
    }
    // A checkpoint that was due is done here: otherwise a command line, which closes before a
    // checkpoint in slices ends, would leave the logs to grow run after run.
    const due = this.running !== undefined || this.checkpointDue();
    // Closed first: the checkpoint then starts no new log only to remove it.
    this.closed = true;
    try {
      if (failed) throw failed;
      if (due) this.checkpointNow();
    } finally {
      this.base.close();
      this.current.close();
      if (this.current.isEmpty) runFileSteps(removeFileSteps(this.current.file));
    }
  }

  /**
   * The logs to fold: the waiting ones and the current one, which a new log replaces. Called
   * where no transaction is open: held pages are committed to the current log, which is fsynced
   * before the next takes a write, so that a crash never keeps a later log's transactions
   * without an earlier one's.
   */
  private takeLogs(): LogToFold[] {
    const logs = this.folded.map(({ file, sequence }) => ({ file, sequence }));
    this.folded = [];
    // The logs end in a fold when statements were logged since the last, or pages as deltas:
    // the snapshot takes whole pages only, and the deltas' base is what it is about to change.
    for (const page of this.deltaPages) this.statementPages.hold(page, this.deltaPageBytes);
    this.loggingDeltasWhole = true;
    try {
      this.foldFirst();
    } finally {
      this.loggingDeltasWhole = false;
    }
    // From here the snapshot is being written: deltas wait until it is durable again.
    this.baseIsDurable = false;
    this.base.close();
    this.held.handOn();
    this.current.commit();
    if (!this.current.isEmpty) {
      // The next log exists before this one is let go: a failure leaves the writer as it was.
      const next = this.closed ? undefined : this.startLog();
      this.current.close();
      logs.push({ file: this.current.file, sequence: this.current.sequence });
      if (next) this.current = next;
    }
    return logs;
  }

  private startLog(): ChangeLogWriter {
    const sequence = this.nextNumber++;
    return ChangeLogWriter.create(logFile(this.databaseFile, sequence), { sequence, salt: this.salt });
  }

  /**
   * Whether the logs cost too much to replay at open: past a share of the snapshot, or deltas
   * past their share of the replay budget (statements stay within it, see logsAsStatements).
   */
  private checkpointDue(): boolean {
    return this.logBytes() > checkpointThresholdBytes(this.snapshotBytes()) || this.deltaPages.size * deltaReplayMicroseconds > deltaShareOfBudget * replayBudgetMicroseconds;
  }

  private logBytes(): number {
    return this.folded.reduce((sum, log) => sum + log.size, this.current.size);
  }

  private snapshotBytes(): number {
    return files.statSync(this.databaseFile)?.size ?? 0;
  }
}
