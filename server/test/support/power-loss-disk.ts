import { constants } from 'node:fs';
import path from 'node:path';
import type { EngineFileSystem, FileStatus, ReadHandle } from '../../store/engine/engine-files.js';

/**
 * A simulated disk for the power-loss test: the engine's file system (engine-files.ts) kept in
 * memory as two states, what the processes see and what the disk holds durably. Every change
 * is recorded in order; an fsync of a file makes its pending data durable, an fsync of a folder
 * its pending entries (creations, renames, removals). {@link SimulatedDisk.replay}
 * then gives the disk as a power loss at any recorded point may leave it: the durable state
 * with any subset of the changes still pending applied in the order they were made (the kernel
 * writes back dirty pages and journals entries in any order, and a page written back holds its
 * latest bytes). Writes are recorded a 4 KiB page at a time, so that a write is torn at any
 * page boundary.
 */
export type DiskEvent =
  | { kind: 'write'; inode: number; offset: number; bytes: Buffer }
  | { kind: 'truncate'; inode: number; size: number }
  /** A folder entry set to an inode (a creation) or removed (`inode` undefined). */
  | { kind: 'entry'; file: string; inode: number | undefined }
  | { kind: 'rename'; from: string; to: string; inode: number }
  | { kind: 'sync'; inode: number }
  | { kind: 'syncFolder'; folder: string }
  /** A point the test names (a write begun or done). */
  | { kind: 'mark'; label: string };

type PendingChange = Exclude<DiskEvent, { kind: 'sync' | 'syncFolder' | 'mark' }>;

/** A file's bytes: the first `size` of `data`, which keeps room to grow (logs are appended to). */
interface Inode {
  data: Buffer;
  size: number;
}

/** Files by path and their bytes by inode. */
class DiskState {
  readonly entries = new Map<string, number>();
  readonly inodes = new Map<number, Inode>();

  clone(): DiskState {
    const copy = new DiskState();
    for (const [file, inode] of this.entries) copy.entries.set(file, inode);
    for (const [number, { data, size }] of this.inodes) copy.inodes.set(number, { data: Buffer.from(data.subarray(0, size)), size });
    return copy;
  }

  bytes(inode: number): Buffer {
    const found = this.inodes.get(inode);
    return found ? found.data.subarray(0, found.size) : Buffer.alloc(0);
  }

  apply(change: PendingChange): void {
    if (change.kind === 'write' || change.kind === 'truncate') {
      const inode = this.inodes.get(change.inode) ?? { data: Buffer.alloc(0), size: 0 };
      this.inodes.set(change.inode, inode);
      const size = change.kind === 'write' ? Math.max(inode.size, change.offset + change.bytes.length) : change.size;
      if (size > inode.data.length) {
        const grown = Buffer.alloc(Math.max(size, 2 * inode.data.length));
        inode.data.copy(grown, 0, 0, inode.size);
        inode.data = grown;
      }
      // Bytes a truncation drops read as zeros when the file grows again.
      if (size < inode.size) inode.data.fill(0, size, inode.size);
      if (change.kind === 'write') change.bytes.copy(inode.data, change.offset);
      inode.size = size;
    } else if (change.kind === 'entry') {
      if (change.inode === undefined) this.entries.delete(change.file);
      else {
        this.entries.set(change.file, change.inode);
        if (!this.inodes.has(change.inode)) this.inodes.set(change.inode, { data: Buffer.alloc(0), size: 0 });
      }
    } else {
      this.entries.delete(change.from);
      this.entries.set(change.to, change.inode);
    }
  }
}

const pageBytes = 4096;

const failure = (code: string, file: string) => Object.assign(new Error(`${code}: ${file}`), { code });

interface OpenFile {
  inode: number;
  file: string;
  position: number;
}

/** See {@link DiskEvent}. */
export class SimulatedDisk {
  /** What processes see. */
  private seen: DiskState;
  /** What the disk holds for sure. */
  private durable: DiskState;
  /** Changes made but not yet covered by an fsync, in order. */
  private pending: PendingChange[] = [];
  /** Everything that happened, in order. */
  readonly events: DiskEvent[] = [];
  private readonly descriptors = new Map<number, OpenFile | { folder: string }>();
  private nextFd = 1000;
  private nextInode = 1;

  constructor(
    /** The folders that exist (the data directory). */
    private readonly folders: readonly string[],
    /** What the disk holds at first (after an earlier power loss). */
    private readonly initial = new DiskState(),
  ) {
    const state = initial;
    this.seen = state.clone();
    this.durable = state.clone();
    this.nextInode = Math.max(0, ...state.inodes.keys()) + 1;
  }

  /** Names a point of the recorded events (a write begun, a write done). */
  mark(label: string): void {
    this.events.push({ kind: 'mark', label });
  }

  /**
   * Replays this disk's recorded events, from the state it started with, up to points in ascending order: at each, `powerLoss` gives the
   * disk as a power loss there leaves it (see {@link SimulatedDisk}).
   */
  recorded() {
    const { folders, events } = this;
    const replay = new SimulatedDisk(folders, this.initial);
    let replayed = 0;
    return {
      /** Advances to `at` events (never back). */
      advanceTo(at: number): void {
        if (at < replayed) throw new Error(`replay is at ${replayed}, past ${at}`);
        for (; replayed < at; replayed++) replay.record(events[replayed]!);
      },
      /** How many changes are pending. */
      get pendingCount(): number {
        return replay.pending.length;
      },
      /** The durable state with the pending changes `chosen` picks (by their index among them) applied in order. */
      powerLoss(chosen: Iterable<number>): SimulatedDisk {
        const state = replay.durable.clone();
        for (const index of chosen) state.apply(replay.pending[index]!);
        return new SimulatedDisk(folders, state);
      },
    };
  }

  /** The names of the files present, in a folder. */
  fileNames(folder: string): string[] {
    return [...this.seen.entries.keys()].filter((file) => path.dirname(file) === folder).map((file) => path.basename(file)).sort();
  }

  /** The engine file system over this disk. */
  fileSystem(): EngineFileSystem {
    const files: EngineFileSystem = {
      openSync: (file, flags, _mode) => this.open(file, flags),
      closeSync: (fd) => {
        if (!this.descriptors.delete(fd)) throw failure('EBADF', String(fd));
      },
      writeSync: (fd, bytes, offset, length, position) => {
        const open = this.openFile(fd);
        const at = position ?? open.position;
        this.write(open.inode, at, Buffer.from(bytes.subarray(offset, offset + length)));
        if (position === null) open.position = at + length;
        return length;
      },
      readSync: (fd, into, offset, length, position) => {
        const bytes = this.bytesOf(this.openFile(fd).inode);
        const read = Math.max(0, Math.min(length, bytes.length - position));
        into.set(bytes.subarray(position, position + read), offset);
        return read;
      },
      fsyncSync: (fd) => this.sync(fd),
      fdatasyncSync: (fd) => this.sync(fd),
      fsync: async (fd) => this.sync(fd),
      fdatasync: async (fd) => this.sync(fd),
      ftruncateSync: (fd, size) => this.change({ kind: 'truncate', inode: this.openFile(fd).inode, size }),
      // Permissions are not simulated: what a power loss leaves is the same with any.
      fchmodSync: (fd) => void this.openFile(fd),
      truncateSync: (file, size) => this.change({ kind: 'truncate', inode: this.inodeOf(file), size }),
      fstatSync: (fd) => this.status(this.openFile(fd).inode),
      statSync: (file) => (this.seen.entries.has(file) ? this.status(this.inodeOf(file)) : undefined),
      readdirSync: (folder) => this.fileNames(folder),
      renameSync: (from, to) => this.change({ kind: 'rename', from, to, inode: this.inodeOf(from) }),
      unlinkSync: (file) => {
        if (this.seen.entries.has(file)) this.change({ kind: 'entry', file, inode: undefined });
      },
      unlink: async (file) => files.unlinkSync(file),
      openForReading: async (file): Promise<ReadHandle> => {
        const fd = files.openSync(file, 'r');
        return {
          stat: async () => files.fstatSync(fd),
          read: async (into, offset, length, position) => ({ bytesRead: files.readSync(fd, into, offset, length, position) }),
          close: async () => files.closeSync(fd),
        };
      },
    };
    return files;
  }

  private open(file: string, flags: string | number): number {
    const fd = this.nextFd++;
    if (this.folders.includes(file)) {
      this.descriptors.set(fd, { folder: file });
      return fd;
    }
    if (!this.folders.includes(path.dirname(file))) throw failure('ENOENT', file);
    const exists = this.seen.entries.has(file);
    const creates = flags === 'w' || flags === 'wx' || (typeof flags === 'number' && (flags & constants.O_CREAT) !== 0);
    if (exists && flags === 'wx') throw failure('EEXIST', file);
    if (!exists && !creates) throw failure('ENOENT', file);
    if (!exists) this.change({ kind: 'entry', file, inode: this.nextInode++ });
    else if (flags === 'w') this.change({ kind: 'truncate', inode: this.inodeOf(file), size: 0 });
    this.descriptors.set(fd, { inode: this.inodeOf(file), file, position: 0 });
    return fd;
  }

  private write(inode: number, offset: number, bytes: Buffer): void {
    for (let at = 0; at < bytes.length; ) {
      const end = Math.min(bytes.length, (Math.floor((offset + at) / pageBytes) + 1) * pageBytes - offset);
      this.change({ kind: 'write', inode, offset: offset + at, bytes: bytes.subarray(at, end) });
      at = end;
    }
  }

  private sync(fd: number): void {
    const open = this.descriptors.get(fd);
    if (!open) throw failure('EBADF', String(fd));
    this.record('folder' in open ? { kind: 'syncFolder', folder: open.folder } : { kind: 'sync', inode: open.inode });
  }

  private change(change: PendingChange): void {
    this.record(change);
  }

  /** Applies an event: a change to what is seen (pending), an fsync (pending made durable), a mark. */
  private record(event: DiskEvent): void {
    this.events.push(event);
    if (event.kind === 'mark') return;
    if (event.kind === 'sync' || event.kind === 'syncFolder') {
      const covered = (change: PendingChange) =>
        event.kind === 'sync'
          ? (change.kind === 'write' || change.kind === 'truncate') && change.inode === event.inode
          : (change.kind === 'entry' ? path.dirname(change.file) : change.kind === 'rename' ? path.dirname(change.to) : undefined) === event.folder;
      for (const change of this.pending.filter(covered)) this.durable.apply(change);
      this.pending = this.pending.filter((change) => !covered(change));
      return;
    }
    this.seen.apply(event);
    this.pending.push(event);
  }

  private openFile(fd: number): OpenFile {
    const open = this.descriptors.get(fd);
    if (!open || 'folder' in open) throw failure('EBADF', String(fd));
    return open;
  }

  private inodeOf(file: string): number {
    const inode = this.seen.entries.get(file);
    if (inode === undefined) throw failure('ENOENT', file);
    return inode;
  }

  private bytesOf(inode: number): Buffer {
    return this.seen.bytes(inode);
  }

  private status(inode: number): FileStatus {
    return { size: this.bytesOf(inode).length, ino: inode, mtimeMs: 0 };
  }
}
