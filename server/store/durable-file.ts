import fs from 'node:fs';
import { ChangeLogWriter, logFile } from './change-log.js';
import { checkpointSteps, runCheckpoint, runCheckpointInSlices } from './checkpoint.js';
import type { FileWriteSink } from './file-write-tap.js';
import { PendingPages } from './pending-pages.js';
import type { FoundLog } from './store-image.js';

/** When a checkpoint runs: past this share of the snapshot's size in logs, or this many bytes, whichever is larger. */
const checkpointShare = 0.25;
const checkpointMinimumBytes = 16 * 2 ** 20;

/** The bytes of change logs past which a checkpoint starts, for a snapshot of `snapshotBytes`. */
export function checkpointThresholdBytes(snapshotBytes: number): number {
  return Math.max(checkpointMinimumBytes, snapshotBytes * checkpointShare);
}
/** Writes that need not be durable are held in memory up to this size, then logged without an fsync. */
const groupBytes = 16 * 2 ** 20;
/** A checkpoint runs once no write came for this long. */
const idleMs = 5_000;

/**
 * The database file on disk: a snapshot and change logs (docs/decisions.md, "The engine"). The
 * tap gives it SQLite's writes; {@link commit} makes them durable at each point where no
 * transaction is open; checkpoints fold the logs into the snapshot, between requests, when the
 * logs pass a share of the snapshot, when the store is idle, and at close.
 */
export class DurableFile implements FileWriteSink {
  private current: ChangeLogWriter;
  /** SQLite's writes on their way to `current`, held while writes need not be durable one by one. */
  private readonly pending: PendingPages;
  /** Logs written before `current`, oldest first, waiting for a checkpoint. */
  private folded: { file: string; size: number }[];
  private nextNumber: number;
  private checkpointing: Promise<void> | undefined;
  /** The logs passed the threshold while a checkpoint ran: another follows it. */
  private checkpointAgain = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * Takes over the logs found at open (cutting off their torn tails: only the lock holder opens
   * one of these) and starts a new log for this process's writes.
   */
  constructor(
    private readonly databaseFile: string,
    found: readonly FoundLog[],
    private readonly onCheckpointError: (error: unknown) => void,
  ) {
    for (const log of found) if (log.size > log.committedBytes) fs.truncateSync(log.file, log.committedBytes);
    this.folded = found.map((log) => ({ file: log.file, size: log.committedBytes }));
    this.nextNumber = (found.at(-1)?.number ?? 0) + 1;
    this.current = this.startLog();
    this.pending = new PendingPages({ write: (offset, bytes) => this.current.write(offset, bytes), truncate: (size) => this.current.truncate(size) });
  }

  write(offset: number, bytes: Uint8Array): void {
    this.pending.write(offset, bytes);
  }

  truncate(size: number): void {
    this.pending.truncate(size);
  }

  /**
   * Closes a transaction of the log; call where no transaction is open. A durable commit is on
   * disk when this returns, with everything before it. One that is not (a sync's staged pages,
   * which a crash may lose: the sync starts again) is held in memory and logged with the next
   * commit, without an fsync of its own.
   */
  commit({ durable = true }: { durable?: boolean } = {}): void {
    if (!durable && this.pending.bytes < groupBytes) return;
    this.pending.handOn();
    if (!this.current.commit({ durable })) return;
    if (this.logBytes() > checkpointThresholdBytes(this.snapshotBytes())) {
      if (this.checkpointing) this.checkpointAgain = true;
      else void this.checkpoint();
      return;
    }
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
    while (this.checkpointing) await this.checkpointing;
    if (this.closed) return;
    this.checkpointing = (async () => {
      const logs = this.takeLogs();
      try {
        await runCheckpointInSlices(checkpointSteps(this.databaseFile, logs));
      } catch (error) {
        // The logs stay, and are replayed at the next open: nothing is lost.
        this.folded.unshift(...logs.map((file) => ({ file, size: 0 })));
        throw error;
      }
    })()
      .catch(this.onCheckpointError)
      .finally(() => {
        this.checkpointing = undefined;
        if (this.checkpointAgain && !this.closed) {
          this.checkpointAgain = false;
          void this.checkpoint();
        }
      });
    await this.checkpointing;
  }

  /**
   * Folds the logs into the snapshot now, on this thread (after a migration, at close). When a
   * checkpoint is under way its logs are left to the next open, which replays them.
   */
  checkpointNow(): void {
    clearTimeout(this.idleTimer);
    if (this.checkpointing) return;
    runCheckpoint(checkpointSteps(this.databaseFile, this.takeLogs()));
  }

  /** Makes held writes durable, checkpoints what it can and closes the log. */
  close(): void {
    if (this.closed) return;
    this.commit();
    // Closed first: the checkpoint then starts no new log only to remove it.
    this.closed = true;
    try {
      this.checkpointNow();
    } finally {
      clearTimeout(this.idleTimer);
      this.current.close();
      if (this.current.isEmpty) fs.rmSync(this.current.file, { force: true });
    }
  }

  /**
   * The logs to fold: the waiting ones and the current one, which a new log replaces. Called
   * where no transaction is open: held pages are committed to the current log, which is fsynced
   * before the next takes a write, so that a crash never keeps a later log's transactions
   * without an earlier one's.
   */
  private takeLogs(): string[] {
    const logs = this.folded.map((log) => log.file);
    this.folded = [];
    this.pending.handOn();
    this.current.commit();
    if (!this.current.isEmpty) {
      // The next log exists before this one is let go: a failure leaves the writer as it was.
      const next = this.closed ? undefined : this.startLog();
      this.current.close();
      logs.push(this.current.file);
      if (next) this.current = next;
    }
    return logs;
  }

  private startLog(): ChangeLogWriter {
    return ChangeLogWriter.create(logFile(this.databaseFile, this.nextNumber++));
  }

  private logBytes(): number {
    return this.folded.reduce((sum, log) => sum + log.size, this.current.size);
  }

  private snapshotBytes(): number {
    return fs.statSync(this.databaseFile, { throwIfNoEntry: false })?.size ?? 0;
  }
}
