import path from 'node:path';
import { ChangeLogWriter, logFile } from './change-log.js';
import { checkpointSteps, type LogToFold, runCheckpoint, runCheckpointInSlices } from './checkpoint.js';
import { files } from './engine-files.js';
import { removeFileSteps, runFileSteps, syncFolderSteps } from './file-steps.js';
import type { FileWriteSink } from './file-write-tap.js';
import { HeldPages } from './held-pages.js';
import { newGeneration, type SnapshotHeader, writeSnapshotHeaderSteps } from './snapshot-header.js';
import type { StoreImage } from './store-image.js';
import { nextTurn } from './next-turn.js';

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
/** A checkpoint runs once no write came for this long. */
const idleMs = 5_000;

/**
 * The database file on disk: a snapshot and change logs (docs/decisions/the-engine-sqljs-on-disk/checkpoints-write-in-place.md, "Checkpoints write
 * in place"). The tap gives it SQLite's writes; {@link commit} makes them durable at each point
 * where no transaction is open; checkpoints fold the logs into the snapshot, between requests,
 * when the logs pass a share of the snapshot, when the store is idle, and at close.
 */
export class DurableFile implements FileWriteSink {
  private current: ChangeLogWriter;
  /** SQLite's writes on their way to `current`, held while writes need not be durable one by one. */
  private readonly held: HeldPages;
  /** Held pages are being handed on a slice per turn. */
  private handingOn = false;
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
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * Takes over what the open found (only the lock holder opens one of these): removes the logs
   * the snapshot holds already, oldest first; keeps aside the ones past a gap; starts the
   * snapshot's generation when it has no header (a new store, or one from before headers);
   * cuts off the torn tails of the logs replayed, and starts a new log for this process's writes.
   */
  constructor(
    private readonly databaseFile: string,
    found: Pick<StoreImage, 'header' | 'base' | 'logs' | 'stale' | 'setAside'>,
    /** Reads the in-memory file's bytes at an offset (FileWriteTap.readAt). */
    readAt: (offset: number, into: Uint8Array) => void,
    private readonly onCheckpointError: (error: unknown) => void,
  ) {
    for (const file of found.stale) runFileSteps(removeFileSteps(file));
    for (const file of found.setAside) files.renameSync(file, `${file}.unreplayed`);
    if (found.setAside.length > 0) runFileSteps(syncFolderSteps(path.dirname(databaseFile)));
    const header: SnapshotHeader = found.header ?? newGeneration(found.base);
    if (!found.header) runFileSteps(writeSnapshotHeaderSteps(databaseFile, header));
    this.salt = header.salt;
    for (const log of found.logs) if (log.size > log.committedBytes) files.truncateSync(log.file, log.committedBytes);
    this.folded = found.logs.map((log) => ({ file: log.file, sequence: log.number, size: log.committedBytes }));
    this.nextNumber = found.base + found.logs.length + 1;
    this.current = this.startLog();
    this.held = new HeldPages({ write: (offset, bytes) => this.current.write(offset, bytes), truncate: (size) => this.current.truncate(size) }, readAt);
  }

  write(offset: number, bytes: Uint8Array): void {
    this.held.write(offset, bytes);
  }

  truncate(size: number): void {
    this.held.truncate(size);
  }

  /**
   * Closes a transaction of the log; call where no transaction is open. A durable commit is on
   * disk when this returns, with everything before it. One that is not (a sync's staged pages,
   * which a crash may lose: the sync stages again) leaves its pages held, to be logged once each
   * with the next durable commit, by {@link settle}, or a slice per turn past {@link holdBytes}.
   */
  commit({ durable = true }: { durable?: boolean } = {}): void {
    if (durable) {
      this.held.handOn();
      this.afterLogCommit(this.current.commit());
      return;
    }
    if (this.held.bytes > holdMostBytes) this.held.handOn(this.held.bytes - holdBytes);
    if (this.held.bytes > holdBytes) this.handOnInSlices();
    this.checkpointWhenIdle();
  }

  /**
   * Hands every held page to the log a slice per turn of the event loop, then commits them and
   * fsyncs the log in the thread pool: the next durable write, or checkpoint, then has little to
   * log or fsync at once.
   */
  async settle(): Promise<void> {
    // Writes go on meanwhile: after twice what was held, what is left is handed on at once.
    let slices = Math.ceil((2 * this.held.bytes) / sliceBytes);
    while (this.held.bytes > 0 && slices-- > 0 && !this.closed) {
      this.held.handOn(sliceBytes);
      await nextTurn();
    }
    if (this.closed) return;
    this.held.handOn();
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
    if (this.logBytes() > checkpointThresholdBytes(this.snapshotBytes())) {
      if (this.checkpointing) this.checkpointAgain = true;
      else void this.checkpoint();
      return;
    }
    this.checkpointWhenIdle();
  }

  private checkpointWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.checkpoint(), idleMs);
    this.idleTimer.unref();
  }

  /**
   * Folds the logs into the snapshot, a slice at a time; writes meanwhile go to a new log.
   * Resolves when done (a checkpoint already running is waited for, then another runs).
   */
  async checkpoint(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.settle();
    while (this.checkpointing) await this.checkpointing;
    if (this.closed) return;
    this.checkpointing = (async () => {
      const logs = this.takeLogs();
      const run = { logs, stopped: false };
      this.running = run;
      try {
        await runCheckpointInSlices(checkpointSteps(this.databaseFile, logs, this.salt), () => run.stopped);
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
    clearTimeout(this.idleTimer);
    const stoppedLogs = this.running?.logs ?? [];
    if (this.running) this.running.stopped = true;
    runCheckpoint(checkpointSteps(this.databaseFile, [...stoppedLogs, ...this.takeLogs()], this.salt));
  }

  /**
   * Makes held writes durable, checkpoints what it can and closes the log. When the log cannot
   * take them, it is closed all the same, without a checkpoint, and the error thrown.
   */
  close(): void {
    if (this.closed) return;
    let failed: unknown;
    try {
      this.commit();
    } catch (error) {
      failed = error;
    }
    // Closed first: the checkpoint then starts no new log only to remove it.
    this.closed = true;
    try {
      if (failed) throw failed;
      this.checkpointNow();
    } finally {
      clearTimeout(this.idleTimer);
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

  private logBytes(): number {
    return this.folded.reduce((sum, log) => sum + log.size, this.current.size);
  }

  private snapshotBytes(): number {
    return files.statSync(this.databaseFile)?.size ?? 0;
  }
}
