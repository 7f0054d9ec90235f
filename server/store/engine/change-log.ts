import path from 'node:path';
import zlib from 'node:zlib';
import { files } from './engine-files.js';
import { runFileSteps, syncFolderSteps } from './file-steps.js';
import { encodeStamp, type SequenceStamp, stampBytes } from './sequence-stamp.js';

/**
 * The change log: what each committed transaction wrote to the database file, appended and
 * fsynced before the write is reported done, so that a write costs what it changes
 * (docs/decisions/the-engine-sqljs-on-disk/the-change-logs-durability.md, "The change log's durability" and "Log format").
 *
 * A log file is a header (its sequence and its generation's salt: snapshot-header.ts binds it to
 * the snapshot it extends), then transactions. A transaction is frames, then a commit frame:
 * - `W` u32 length, u64 offset, bytes: SQLite wrote these bytes at this offset;
 * - `D` u32 length, u64 offset, u32 page length, then a page's bytes deflated against the
 *   snapshot's bytes at its offset (a fold's page, a delta: see {@link logFormat});
 * - `T` u64 size: SQLite truncated the file to this size;
 * - `C` u64 length of the transaction's frames, u32 CRC-32 of them, u32 end mark.
 * A transaction counts only with its commit frame and a matching checksum: a torn or corrupt
 * tail (a crash mid-append) is ignored, and the writer cuts it off when it opens the log.
 */
/** The log format's bytes, shared with its reader (change-log-reader.ts). */
export const logFormat = {
  /** The header: this magic, then the log's sequence and salt (sequence-stamp.ts). */
  magic: Buffer.from('RCLOG 3\n'),
  /** Logs of pages only, from before statements: the same header and frames, still replayed. */
  pagesOnlyMagic: Buffer.from('RCLOG 2\n'),
  headerBytes: stampBytes,
  /** The header of logs written before sequences (8 bytes, the magic alone): the sequence is the file's number. */
  legacyMagic: Buffer.from('RCLOG 1\n'),
  writeFrame: 0x57,
  truncateFrame: 0x54,
  commitFrame: 0x43,
  /** `S` u32 length, then a statement and its bound values (statement-codec.ts). */
  statementFrame: 0x53,
  /**
   * `M` u32: the microseconds the transaction's statements took to run when recorded. Builds
   * before 2026-11-29 count it against the replay budget at open; later ones time the replay.
   */
  durationFrame: 0x4d,
  /** `F` u64 size: the file is this size, and the transaction's `W` and `D` frames are every page written since the last fold. */
  foldFrame: 0x46,
  /**
   * `D` u32 length, u64 offset, u32 page length, then the page's bytes as raw DEFLATE whose
   * preset dictionary is the snapshot file's bytes at that offset (zeros past its end). A fold
   * writes its pages so while no checkpoint is writing the snapshot, and a checkpoint first logs
   * every such page whole (durable-file.ts): the snapshot a delta was taken against is the one an
   * open reads it against (docs/decisions/the-engine-sqljs-on-disk/a-folds-pages-are-deltas.md).
   */
  deltaFrame: 0x44,
  endMark: 0x52434c43,
  writeHeaderBytes: 1 + 4 + 8,
  deltaHeaderBytes: 1 + 4 + 8 + 4,
  truncateBytes: 1 + 8,
  statementHeaderBytes: 1 + 4,
  durationBytes: 1 + 4,
  foldBytes: 1 + 8,
  commitBytes: 1 + 8 + 4 + 4,
} as const;
const {
  magic,
  headerBytes,
  writeFrame,
  truncateFrame,
  commitFrame,
  statementFrame,
  durationFrame,
  foldFrame,
  deltaFrame,
  endMark,
  writeHeaderBytes,
  deltaHeaderBytes,
  truncateBytes,
  statementHeaderBytes,
  durationBytes,
  foldBytes,
  commitBytes,
} = logFormat;
/** Frames are gathered in memory up to this size, then written out ahead of their commit. */
const bufferBytes = 4 * 2 ** 20;
/** The largest frame header, or frame without a body (a commit's). */
const largestHeaderBytes = Math.max(writeHeaderBytes, deltaHeaderBytes, truncateBytes, statementHeaderBytes, durationBytes, foldBytes, commitBytes);

/** One change of a transaction's pages. */
export type LogFrame = { kind: 'write'; offset: number; bytes: Uint8Array } | { kind: 'truncate'; size: number };

/**
 * A change of a transaction's pages, located in its log file: a write's bytes are read when
 * applied. `length` is the bytes written to the file; a delta's (`D`) body is `deflatedBytes`
 * long at `position`, and gives them with the snapshot's bytes at `offset`.
 */
export type PageFrameRef = { kind: 'write'; offset: number; length: number; position: number; deflatedBytes?: number } | { kind: 'truncate'; size: number };

/**
 * A frame of a transaction, located in its log file. A fold's `F` reads as a truncation to its
 * size (the file is that size, then its pages are written), with `fold` set.
 */
export type LogFrameRef =
  | PageFrameRef
  | { kind: 'truncate'; size: number; fold: true }
  | { kind: 'statement'; length: number; position: number }
  | { kind: 'duration'; microseconds: number };

/** Whether a frame changes the file's bytes (what a checkpoint and the image at open apply). */
export const isPageFrame = (frame: LogFrameRef): frame is PageFrameRef => frame.kind === 'write' || frame.kind === 'truncate';

/**
 * The logs of a database file: `inventory.sqlite` has `inventory.sqlite.log.1`, `.log.2`, …,
 * numbered by their sequence, in order.
 */
export function logFiles(databaseFile: string): { number: number; file: string }[] {
  const folder = path.dirname(databaseFile);
  const prefix = `${path.basename(databaseFile)}.log.`;
  return files
    .readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ number: Number(name.slice(prefix.length)), file: path.join(folder, name) }))
    .sort((a, b) => a.number - b.number);
}

/** The path of the log of sequence `number` of a database file. */
export function logFile(databaseFile: string, number: number): string {
  return `${databaseFile}.log.${number}`;
}

/**
 * The size of the file after `frames` applied to a file of `size` bytes, and the most it
 * reaches meanwhile.
 */
export function extentAfter(size: number, frames: Iterable<LogFrame | PageFrameRef>): { size: number; largest: number } {
  let largest = size;
  for (const frame of frames) {
    size = frame.kind === 'write' ? Math.max(size, frame.offset + ('bytes' in frame ? frame.bytes.length : frame.length)) : frame.size;
    largest = Math.max(largest, size);
  }
  return { size, largest };
}

/**
 * Applies `frames` to `image`, whose first `size` bytes are the file, in place; `image` must
 * hold the largest extent ({@link extentAfter}). Bytes a truncation drops read as zeros after.
 */
export function applyFrames(image: Uint8Array, size: number, frames: Iterable<LogFrame>): number {
  for (const frame of frames) {
    if (frame.kind === 'write') {
      image.set(frame.bytes, frame.offset);
      size = Math.max(size, frame.offset + frame.bytes.length);
    } else {
      if (frame.size < size) image.fill(0, frame.size, size);
      size = frame.size;
    }
  }
  return size;
}

/**
 * Appends a database's writes to one log file. The tap hands it each write as SQLite makes it
 * (through the database's durable file, durable-file.ts);
 * {@link commit} closes a transaction at a point where the file is consistent (no transaction
 * open) and makes it durable.
 */
export class ChangeLogWriter {
  /**
   * Frames not written out yet, in one buffer used again after each write-out: a new buffer per
   * frame, concatenated at each write-out, left about 50 MiB to the collector at times during a
   * full sync of `large` (part of its peak).
   */
  private readonly pending = Buffer.allocUnsafe(bufferBytes);
  private pendingBytes = 0;
  /** Where a frame's header is made before it is added. */
  private readonly header = Buffer.allocUnsafe(largestHeaderBytes);
  /** Bytes of the open transaction's frames, in the file or pending. */
  private transactionBytes = 0;
  private checksum = 0;
  /** Commits written to memory or the file but not fsynced yet. */
  private unsynced = false;
  /** Commits so far, to tell whether one came during an fsync off the thread. */
  private commits = 0;
  /** The last fsync off the thread, settled or not. */
  private syncing: Promise<void> | undefined;
  /** Why a write or fsync of the file failed: every later one is refused with it. */
  private failure: unknown;
  private closed = false;

  private constructor(
    readonly file: string,
    /** The log's sequence (its header's). */
    readonly sequence: number,
    private readonly fd: number,
    /** The file's size up to the last commit. */
    private committed: number,
  ) {}

  /**
   * Creates log `file` (which must not exist) with its header, durably: its folder is fsynced
   * before it takes a write, so that a log is never found without the one before it.
   */
  static create(file: string, stamp: SequenceStamp): ChangeLogWriter {
    const fd = files.openSync(file, 'wx', 0o600);
    try {
      const header = encodeStamp(magic, stamp);
      files.writeSync(fd, header, 0, header.length, null);
      files.fsyncSync(fd);
      runFileSteps(syncFolderSteps(path.dirname(file)));
    } catch (error) {
      files.closeSync(fd);
      throw error;
    }
    return new ChangeLogWriter(file, stamp.sequence, fd, headerBytes);
  }

  /** The log's committed size in bytes. */
  get size(): number {
    return this.committed;
  }

  /** Whether the log holds no transaction. */
  get isEmpty(): boolean {
    return this.committed === headerBytes && this.transactionBytes === 0;
  }

  write(offset: number, bytes: Uint8Array): void {
    const header = this.header;
    header[0] = writeFrame;
    header.writeUInt32LE(bytes.length, 1);
    header.writeBigUInt64LE(BigInt(offset), 5);
    this.add(header.subarray(0, writeHeaderBytes), bytes);
  }

  /** Adds a page of `pageBytes` bytes at `offset` as a delta: `deflated` against the snapshot's bytes there ({@link logFormat}'s `D`). */
  delta(offset: number, pageBytes: number, deflated: Uint8Array): void {
    const header = this.header;
    header[0] = deltaFrame;
    header.writeUInt32LE(deflated.length, 1);
    header.writeBigUInt64LE(BigInt(offset), 5);
    header.writeUInt32LE(pageBytes, 13);
    this.add(header.subarray(0, deltaHeaderBytes), deflated);
  }

  truncate(size: number): void {
    const header = this.header;
    header[0] = truncateFrame;
    header.writeBigUInt64LE(BigInt(size), 1);
    this.add(header.subarray(0, truncateBytes));
  }

  /** Adds a statement with its bound values, encoded (statement-codec.ts), to the open transaction. */
  statement(encoded: Uint8Array): void {
    const header = this.header;
    header[0] = statementFrame;
    header.writeUInt32LE(encoded.length, 1);
    this.add(header.subarray(0, statementHeaderBytes), encoded);
  }

  /** Records what the open transaction's statements took to run, in microseconds (bounded to u32). */
  duration(microseconds: number): void {
    const header = this.header;
    header[0] = durationFrame;
    header.writeUInt32LE(Math.min(0xffffffff, Math.max(0, Math.round(microseconds))), 1);
    this.add(header.subarray(0, durationBytes));
  }

  /** Opens a fold in the open transaction: the file is `size` bytes, and the `W` and `D` frames after it are every page written since the last fold. */
  fold(size: number): void {
    const header = this.header;
    header[0] = foldFrame;
    header.writeBigUInt64LE(BigInt(size), 1);
    this.add(header.subarray(0, foldBytes));
  }

  /** Whether the open transaction has frames already (a bulk write's pages handed on before its commit). */
  get hasOpenFrames(): boolean {
    return this.transactionBytes > 0;
  }

  /**
   * Ends the open transaction; false when it wrote nothing. A durable commit is written and
   * fsynced before it returns (with every commit before it); one that is not stays in memory
   * until the next durable commit or {@link sync}: a crash may lose it, and the ones after it,
   * never the ones before.
   */
  commit({ durable = true }: { durable?: boolean } = {}): boolean {
    this.throwIfFailed();
    if (this.transactionBytes === 0) {
      if (durable) this.sync();
      return false;
    }
    const frame = this.header;
    frame[0] = commitFrame;
    frame.writeBigUInt64LE(BigInt(this.transactionBytes), 1);
    frame.writeUInt32LE(this.checksum, 9);
    frame.writeUInt32LE(endMark, 13);
    this.put(frame.subarray(0, commitBytes));
    this.committed += this.transactionBytes + commitBytes;
    this.transactionBytes = 0;
    this.checksum = 0;
    this.unsynced = true;
    this.commits++;
    if (durable) this.sync();
    return true;
  }

  /** Writes out and fsyncs the commits not yet durable. */
  sync(): void {
    if (!this.unsynced) return;
    this.flush();
    this.fileIo(() => files.fdatasyncSync(this.fd));
    this.unsynced = false;
  }

  /**
   * Writes out the commits not yet durable and fsyncs them in the thread pool, so that the next
   * durable commit's fsync has little left to do.
   */
  async syncOffThread(): Promise<void> {
    if (!this.unsynced || this.closed) return;
    this.flush();
    const commitsBefore = this.commits;
    const syncing = files.fdatasync(this.fd).catch((error: unknown) => {
      this.failure ??= error;
      throw error;
    });
    this.syncing = syncing.catch(() => undefined);
    await syncing;
    if (this.commits === commitsBefore) this.unsynced = false;
  }

  /** Makes the commits durable and closes the file; an open transaction is dropped. */
  close(): void {
    if (this.closed) return;
    try {
      this.sync();
    } finally {
      this.closed = true;
      // An fsync in the thread pool has the descriptor until it ends.
      if (this.syncing) void this.syncing.finally(() => files.closeSync(this.fd));
      else files.closeSync(this.fd);
    }
  }

  /** Adds a frame, its header and its body if it has one, to the open transaction. */
  private add(header: Buffer, body?: Uint8Array): void {
    this.throwIfFailed();
    this.checksum = zlib.crc32(header, this.checksum);
    if (body) this.checksum = zlib.crc32(body, this.checksum);
    this.transactionBytes += header.length + (body?.length ?? 0);
    this.put(header);
    if (body) this.put(body);
  }

  /** Copies `bytes` after the pending ones, writing them out first when they do not fit; bytes larger than the buffer go straight to the file. */
  private put(bytes: Uint8Array): void {
    if (this.pendingBytes + bytes.length > bufferBytes) this.flush();
    if (bytes.length > bufferBytes) this.writeOut(bytes);
    else {
      this.pending.set(bytes, this.pendingBytes);
      this.pendingBytes += bytes.length;
    }
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    this.writeOut(this.pending.subarray(0, this.pendingBytes));
    this.pendingBytes = 0;
  }

  private writeOut(bytes: Uint8Array): void {
    this.fileIo(() => {
      let written = 0;
      while (written < bytes.length) written += files.writeSync(this.fd, bytes, written, bytes.length - written, null);
    });
  }

  /**
   * Runs a write or fsync of the log file. After one fails (a full disk, an I/O error) the file
   * may end in part of a frame, and the kernel may have dropped the pages an fsync did not
   * write: anything appended after could never be replayed, so the writer refuses everything
   * with that error from then on, and the database its writes (a restart reopens the disk's state).
   */
  private fileIo(io: () => void): void {
    this.throwIfFailed();
    try {
      io();
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
