/**
 * Where each write SQLite makes to a database file is seen, as (offset, bytes), without copying
 * the database: the hook the change log hangs on (docs/decisions/the-engine-sqljs-on-disk/the-tap-on-sqljss-webassembly-imports.md, "The tap on sql.js's
 * WebAssembly imports").
 *
 * sql.js keeps its files in Emscripten's in-memory file system, reached from the WebAssembly
 * module through imported functions (`__syscall_openat`, `fd_seek`, `fd_write`,
 * `__syscall_ftruncate64`). sql.js does not expose that file system, and its build minifies the
 * imports' names, so the tap wraps every import and finds these four by what they do, with a
 * probe database, when the module loads; it then checks itself on a second probe (the pages it
 * saw, applied to nothing, must give the bytes sql.js exports). A sql.js build whose imports do
 * not behave as these POSIX and WASI calls do is refused at load with an error, never used.
 */

import { applyFrames, extentAfter, type LogFrame } from './change-log.js';
import { SnapshotPages, readerOfBytes } from './snapshot-pages.js';

/** Receives the writes of one watched file; must copy `bytes` before returning. */
export interface FileWriteSink {
  write(offset: number, bytes: Uint8Array): void;
  truncate(size: number): void;
  /**
   * SQLite truncating the file is told to {@link truncate} only: the in-memory file keeps its
   * array, the bytes past the size left as room (as {@link FileWriteTap.growTo} makes). Its file
   * system would otherwise copy the whole file to a new array at each truncation, which a
   * compaction in slices makes at every slice (store/inventory/page-compaction.ts).
   */
  readonly keepsRoom?: boolean;
}

/**
 * The bytes of a watched file not in memory yet (snapshot-pages.ts), brought in before SQLite
 * reads them and before its file system copies the file to a new array.
 */
export interface FilePages {
  beforeRead(offset: number, length: number): void;
  beforeWrite(offset: number, length: number): void;
  beforeResize(): void;
  /** Before the file is cut to `size` with its array kept: what lies past it is never read from the snapshot again. */
  beforeTruncateOfImage(size: number): void;
}

/**
 * Header bytes that export() sets in its copy only: the journal format (18, 19), and the change
 * counter, schema cookie and version-valid-for number the backup API bumps (24–27, 40–43, 92–95).
 */
const headerFieldsOfTheCopy = new Set([18, 19, 24, 25, 26, 27, 40, 41, 42, 43, 92, 93, 94, 95]);

type ImportFunction = (...args: unknown[]) => unknown;

/** A WebAssembly module's imports, by module name then import name (`WebAssembly.Imports`). */
export type WasmImports = Record<string, Record<string, unknown>>;

/** What the tap uses of a WebAssembly instance and its memory. */
export interface WasmInstance {
  exports: Record<string, unknown>;
}
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

const isMemory = (value: unknown): value is WasmMemory =>
  typeof value === 'object' && value !== null && 'buffer' in value && value.buffer instanceof ArrayBuffer && 'grow' in value;

interface Slot {
  original: ImportFunction;
  current: ImportFunction;
}

/** The four imports the tap needs, once found. */
interface FileCalls {
  openat: Slot;
  seek: Slot;
  write: Slot;
  truncate: Slot;
  read: Slot;
}

/** Opens a database of the module: a new one, or one of `bytes` (`new SQL.Database(bytes)`). */
export type OpenProbe = (bytes?: Uint8Array) => ProbeDatabase;

/** What sql.js's `Database` looks like to the tap: its file is `/` + `filename`. */
export interface ProbeDatabase {
  filename: string;
  exec(sql: string): { values: unknown[][] }[];
  export(): Uint8Array;
  close(): void;
}

/** The taps of the one sql.js module of this thread. */
export class FileWriteTap {
  private memory: WasmMemory | undefined;
  private readonly slots: Slot[] = [];
  private calls: FileCalls | undefined;
  /** The path each open descriptor was opened with (a descriptor number is reused after close). */
  private readonly paths = new Map<number, string>();
  private readonly positions = new Map<number, number>();
  private readonly sinks = new Map<string, FileWriteSink>();
  /** Descriptors of watched paths, for the write path's one map lookup. */
  private readonly watchedDescriptors = new Map<number, FileWriteSink>();
  private readonly pagesOfPaths = new Map<string, FilePages>();
  /** Descriptors of watched paths whose bytes are read on demand. */
  private readonly pagedDescriptors = new Map<number, FilePages>();
  /** How {@link identify} opens probes, for the check of {@link readsOnDemand}. */
  private openProbe: OpenProbe | undefined;
  private readsOnDemandChecked: boolean | undefined;

  /**
   * Returns `imports` with every function wrapped, for `Module.instantiateWasm`; the wrappers
   * call the originals until {@link identify} has found the file calls.
   */
  wrapImports(imports: WasmImports): WasmImports {
    const wrappedModules = new Map<object, Record<string, unknown>>();
    const result: WasmImports = {};
    for (const [moduleName, functions] of Object.entries(imports)) {
      let wrapped = wrappedModules.get(functions);
      if (!wrapped) {
        wrapped = {};
        for (const [name, value] of Object.entries(functions)) {
          if (typeof value !== 'function') {
            wrapped[name] = value;
            continue;
          }
          const slot: Slot = { original: value as ImportFunction, current: value as ImportFunction };
          this.slots.push(slot);
          // Seven parameters cover every import; a fixed list is cheaper than a rest parameter on the hot path.
          wrapped[name] = (a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown) => slot.current(a, b, c, d, e, f, g);
        }
        wrappedModules.set(functions, wrapped);
      }
      result[moduleName] = wrapped;
    }
    return result;
  }

  /** Takes the instance's memory; called once the module is instantiated. */
  attach(instance: WasmInstance): void {
    this.memory = Object.values(instance.exports).find(isMemory);
    if (!this.memory) throw new Error('sql.js exports no memory: the change log cannot read its writes');
  }

  /**
   * Finds the file calls with a probe database, installs the taps, and checks them on a second
   * probe. `open` creates a database of the module (`new SQL.Database()`).
   */
  identify(open: OpenProbe): void {
    // sql.js keeps the first module a process initialises: one initialised elsewhere first was never given the tap.
    if (!this.memory) throw new Error('sql.js was initialised before the store loaded it (loadSqlJs): its file writes cannot be seen');
    const marker = `rc-probe-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const markerBytes = new TextEncoder().encode(marker);
    const recorded: { slot: Slot; args: unknown[]; result: unknown; carriesMarker: boolean; returnsMarker: boolean }[] = [];
    for (const slot of this.slots) {
      slot.current = (...given: unknown[]) => {
        // The wrappers pass seven arguments: what the call was given ends at its last defined one.
        let count = given.length;
        while (count > 0 && given[count - 1] === undefined) count--;
        const args = given.slice(0, count);
        const carriesMarker = this.iovecsContain(args, markerBytes);
        const result = slot.original(...args);
        recorded.push({ slot, args, result, carriesMarker, returnsMarker: !carriesMarker && this.iovecsContain(args, markerBytes) });
        return result;
      };
    }
    let probe: ProbeDatabase | undefined;
    try {
      probe = open();
      const path = `/${probe.filename}`;
      // A table written, grown and dropped, then VACUUM: the file is written, and truncated when it shrinks.
      probe.exec(`PRAGMA journal_mode = MEMORY; CREATE TABLE probe (x); INSERT INTO probe VALUES ('${marker}')`);
      probe.exec(`CREATE TABLE filler (x); INSERT INTO filler VALUES (zeroblob(65536)); DROP TABLE filler; VACUUM`);
      // A page cache of two pages, and a row of overflow pages with the marker at its end: SQLite reads it back from the file.
      probe.exec(`INSERT INTO probe VALUES (zeroblob(20000) || '${marker}'); PRAGMA cache_size = 2; SELECT hex(x) FROM probe`);
      const opened = recorded.find((call) => typeof call.result === 'number' && call.result >= 3 && call.args.some((arg) => this.stringAt(arg) === path));
      const fd = opened?.result;
      const forFile = recorded.filter((call) => call.args[0] === fd);
      const seek = forFile.find((call) => call.args.length >= 4 && typeof call.args[1] === 'bigint')?.slot;
      const truncate = forFile.find((call) => call.args.length === 2 && typeof call.args[1] === 'bigint')?.slot;
      const write = forFile.find((call) => call.carriesMarker)?.slot;
      const read = forFile.find((call) => call.returnsMarker && call.slot !== write)?.slot;
      if (!opened || !seek || !truncate || !write || !read) {
        throw new Error('This build of sql.js does not show its file writes as the change log needs (open, seek, write, truncate and read not all found)');
      }
      this.calls = { openat: opened.slot, seek, write, truncate, read };
    } finally {
      for (const slot of this.slots) slot.current = slot.original;
      probe?.close();
    }
    this.install();
    this.checkOn(open());
    this.openProbe = open;
  }

  /**
   * Whether a database may be opened on an array its snapshot is read into on demand ({@link
   * watch} with pages): checked on a probe the first time it is asked (`serve` never asks).
   */
  get readsOnDemand(): boolean {
    this.readsOnDemandChecked ??= this.openProbe !== undefined && this.readsOnDemandOn(this.openProbe);
    return this.readsOnDemandChecked;
  }

  /**
   * Sends the writes to the file of `filename` (a sql.js Database's) to `sink`, until {@link
   * unwatch}; with `pages`, brings its bytes into memory before they are read.
   */
  watch(filename: string, sink: FileWriteSink, pages?: FilePages): void {
    const path = `/${filename}`;
    this.sinks.set(path, sink);
    if (pages) this.pagesOfPaths.set(path, pages);
    for (const [fd, openPath] of this.paths) {
      if (openPath !== path) continue;
      this.watchedDescriptors.set(fd, sink);
      if (pages) this.pagedDescriptors.set(fd, pages);
    }
  }

  unwatch(filename: string): void {
    const path = `/${filename}`;
    this.sinks.delete(path);
    this.pagesOfPaths.delete(path);
    for (const [fd, openPath] of this.paths) {
      if (openPath !== path) continue;
      this.watchedDescriptors.delete(fd);
      this.pagedDescriptors.delete(fd);
    }
  }

  /**
   * Grows the in-memory file of `filename` to `size` bytes at once, unseen by the sink: SQLite
   * ignores bytes past the size its header records, and the file system then has room for a
   * bulk load instead of copying the whole file at every eighth it grows by.
   */
  growTo(filename: string, size: number): void {
    const fd = this.descriptorOf(filename);
    this.pagedDescriptors.get(fd)?.beforeResize();
    const result = this.calls!.truncate.original(fd, BigInt(size));
    if (result !== 0) throw new Error(`Could not make room for ${size} bytes in memory (error ${String(result)})`);
  }

  /**
   * Reads `into.length` bytes at `offset` of the in-memory file of `filename`, through the same
   * seek and read SQLite uses. The calls need their buffers in the module's memory: a region of
   * it is borrowed and given back as it was, which is safe because no WebAssembly code runs
   * meanwhile (these imports are JavaScript that copies bytes). SQLite seeks before each of its
   * own reads and writes, so the position left behind is never used.
   */
  readAt(filename: string, offset: number, into: Uint8Array): void {
    const fd = this.descriptorOf(filename);
    this.pagedDescriptors.get(fd)?.beforeRead(offset, into.length);
    const memory = this.memory!;
    // The new position (8 bytes, aligned: Emscripten writes it as one 64-bit word), the iovec, the count read, the bytes.
    const scratchBytes = 24 + into.length;
    const start = (memory.buffer.byteLength - scratchBytes) & ~7;
    const saved = new Uint8Array(memory.buffer, start, scratchBytes).slice();
    try {
      const view = new DataView(memory.buffer);
      const [newOffset, iov, count, data] = [start, start + 8, start + 16, start + 24];
      const sought = this.calls!.seek.original(fd, BigInt(offset), 0, newOffset);
      view.setUint32(iov, data, true);
      view.setUint32(iov + 4, into.length, true);
      const result = this.calls!.read.original(fd, iov, 1, count);
      const read = new DataView(memory.buffer).getUint32(count, true);
      if (sought !== 0 || result !== 0 || read !== into.length) throw new Error(`Could not read ${into.length} bytes at ${offset} of ${filename} in memory`);
      into.set(new Uint8Array(memory.buffer, data, into.length));
    } finally {
      new Uint8Array(memory.buffer, start, scratchBytes).set(saved);
    }
  }

  private descriptorOf(filename: string): number {
    const path = `/${filename}`;
    for (const [fd, openPath] of this.paths) if (openPath === path) return fd;
    throw new Error(`${filename} is not open`);
  }

  private install(): void {
    const { openat, seek, write, truncate, read } = this.calls!;
    openat.current = (...args: unknown[]) => {
      const fd = openat.original(...args);
      if (typeof fd === 'number' && fd >= 0) {
        const path = this.stringAt(args[1]) ?? '';
        this.paths.set(fd, path);
        const sink = this.sinks.get(path);
        if (sink) this.watchedDescriptors.set(fd, sink);
        else this.watchedDescriptors.delete(fd);
        const pages = this.pagesOfPaths.get(path);
        if (pages) this.pagedDescriptors.set(fd, pages);
        else this.pagedDescriptors.delete(fd);
      }
      return fd;
    };
    read.current = (fd, iov, iovcnt, count) => {
      const pages = this.pagedDescriptors.get(fd as number);
      if (!pages) return read.original(fd, iov, iovcnt, count);
      const position = this.positions.get(fd as number) ?? 0;
      pages.beforeRead(position, this.iovecsLength(iov as number, iovcnt as number));
      const result = read.original(fd, iov, iovcnt, count);
      if (result === 0) this.positions.set(fd as number, position + new DataView(this.memory!.buffer).getUint32(count as number, true));
      return result;
    };
    seek.current = (fd, offset, whence, newOffset) => {
      const result = seek.original(fd, offset, whence, newOffset);
      if (result === 0 && this.watchedDescriptors.has(fd as number)) {
        this.positions.set(fd as number, Number(new DataView(this.memory!.buffer).getBigInt64(newOffset as number, true)));
      }
      return result;
    };
    write.current = (fd, iov, iovcnt, written) => {
      const sink = this.watchedDescriptors.get(fd as number);
      this.pagedDescriptors.get(fd as number)?.beforeWrite(this.positions.get(fd as number) ?? 0, this.iovecsLength(iov as number, iovcnt as number));
      const result = write.original(fd, iov, iovcnt, written);
      if (!sink || result !== 0) return result;
      const view = new DataView(this.memory!.buffer);
      let remaining = view.getUint32(written as number, true);
      let position = this.positions.get(fd as number) ?? 0;
      for (let i = 0; i < (iovcnt as number) && remaining > 0; i++) {
        const base = (iov as number) + i * 8;
        const length = Math.min(view.getUint32(base + 4, true), remaining);
        sink.write(position, new Uint8Array(this.memory!.buffer, view.getUint32(base, true), length));
        position += length;
        remaining -= length;
      }
      this.positions.set(fd as number, position);
      return result;
    };
    truncate.current = (fd, length) => {
      const watched = this.watchedDescriptors.get(fd as number);
      if (watched?.keepsRoom) {
        // SQLite truncates only to shrink the file, and reads no page past the size its header records.
        this.pagedDescriptors.get(fd as number)?.beforeTruncateOfImage(Number(length));
        watched.truncate(Number(length));
        return 0;
      }
      this.pagedDescriptors.get(fd as number)?.beforeResize();
      const result = truncate.original(fd, length);
      const sink = this.watchedDescriptors.get(fd as number);
      if (sink && result === 0) sink.truncate(Number(length));
      return result;
    };
  }

  /** The pages seen while a probe is written must rebuild the bytes sql.js exports of it. */
  private checkOn(probe: ProbeDatabase): void {
    const frames: LogFrame[] = [];
    const sink: FileWriteSink = {
      write: (offset, bytes) => frames.push({ kind: 'write', offset, bytes: bytes.slice() }),
      truncate: (size) => frames.push({ kind: 'truncate', size }),
    };
    try {
      this.watch(probe.filename, sink);
      probe.exec(`PRAGMA journal_mode = MEMORY; CREATE TABLE a (x); INSERT INTO a VALUES (randomblob(20000)), ('check')`);
      probe.exec(`BEGIN; UPDATE a SET x = 'changed' WHERE x = 'check'; COMMIT; CREATE TABLE b (y); DROP TABLE b; VACUUM`);
      // Rebuilt as an open replays a log: the check covers the replay too.
      const image = new Uint8Array(extentAfter(0, frames).largest);
      const seen = image.subarray(0, applyFrames(image, 0, frames));
      const exported = probe.export();
      const same = seen.length === exported.length && seen.every((byte, i) => byte === exported[i] || headerFieldsOfTheCopy.has(i));
      if (!same) throw new Error('The writes seen of sql.js do not rebuild its database: the change log cannot be used with this build of sql.js');
      // The file read back a page at a time, as held pages are (durable-file.ts), is what the writes made.
      const readBack = new Uint8Array(seen.length);
      for (let offset = 0; offset < seen.length; offset += 4096) this.readAt(probe.filename, offset, readBack.subarray(offset, Math.min(seen.length, offset + 4096)));
      if (!Buffer.from(readBack).equals(Buffer.from(seen))) throw new Error('The file sql.js holds in memory does not read back as written: the change log cannot be used with this build of sql.js');
      probe.exec(`SELECT count(*) FROM a`);
    } finally {
      this.unwatch(probe.filename);
      probe.close();
    }
  }

  /** The bytes `count` iovecs at `iov` in the module's memory describe. */
  private iovecsLength(iov: number, count: number): number {
    const view = new DataView(this.memory!.buffer);
    let length = 0;
    for (let i = 0; i < count; i++) length += view.getUint32(iov + i * 8 + 4, true);
    return length;
  }

  /**
   * Whether a database opened on an array its snapshot is read into on demand reads as the
   * snapshot: a probe of many pages (rows, an index, overflow pages), exported, then opened on
   * zeros with {@link SnapshotPages} over the exported bytes, must pass SQLite's integrity check,
   * give the same answers, take a write, and have read pages only as asked. False when not
   * (a build whose file system copied the array, or read it some other way): stores then read
   * their whole snapshot at open, as before.
   */
  private readsOnDemandOn(open: OpenProbe): boolean {
    const marker = `rc-pages-${Math.random().toString(36).slice(2)}`;
    // A few rows by rowid and one by the index: a few pages of many.
    const asked = `SELECT k, length(x) FROM a WHERE rowid IN (1, 2, 3); SELECT rowid FROM a WHERE k = '${marker}'`;
    const whole = `SELECT count(*), sum(length(x)), max(k), max(x) FROM a`;
    let source: ProbeDatabase | undefined;
    let probe: ProbeDatabase | undefined;
    try {
      source = open();
      // About 30 pages: rows of a page each, an index, a row with overflow pages.
      source.exec(`CREATE TABLE a (k, x); CREATE INDEX a_k ON a (k)`);
      source.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20) INSERT INTO a SELECT hex(randomblob(8)), zeroblob(3000) FROM n`);
      source.exec(`INSERT INTO a VALUES ('${marker}', zeroblob(9000) || '${marker}'), ('${marker}', NULL)`);
      const expected = JSON.stringify([source.exec(asked), source.exec(whole)]);
      const bytes = source.export();
      const pages = new SnapshotPages(Buffer.alloc(bytes.length + 65_536), bytes.length, readerOfBytes(bytes));
      // SQLite reads the header when it opens the file, before the tap watches it.
      pages.beforeRead(0, 100);
      probe = open(pages.image);
      this.watch(probe.filename, { write: () => undefined, truncate: () => undefined }, pages);
      const answeredAsked = probe.exec(asked);
      const readOnlyAsked = !pages.complete;
      const answered = JSON.stringify([answeredAsked, probe.exec(whole)]);
      const intact = JSON.stringify(probe.exec('PRAGMA integrity_check')) === JSON.stringify([{ columns: ['integrity_check'], values: [['ok']] }]);
      probe.exec(`INSERT INTO a VALUES ('${marker}', 'written')`);
      const written = JSON.stringify(probe.exec(`SELECT count(*) FROM a WHERE k = '${marker}'`)) === JSON.stringify([{ columns: ['count(*)'], values: [[3]] }]);
      return answered === expected && readOnlyAsked && intact && written;
    } catch {
      return false;
    } finally {
      if (probe) this.unwatch(probe.filename);
      probe?.close();
      source?.close();
    }
  }

  private iovecsContain(args: unknown[], marker: Uint8Array): boolean {
    const [fd, iov, count] = args;
    const memory = this.memory;
    if (!memory || args.length !== 4 || typeof fd !== 'number' || typeof iov !== 'number' || typeof count !== 'number' || count < 1 || count > 64) return false;
    const view = new DataView(memory.buffer);
    if (iov + count * 8 > memory.buffer.byteLength) return false;
    for (let i = 0; i < count; i++) {
      const pointer = view.getUint32(iov + i * 8, true);
      const length = view.getUint32(iov + i * 8 + 4, true);
      if (pointer + length > memory.buffer.byteLength) return false;
      if (Buffer.from(memory.buffer, pointer, length).includes(Buffer.from(marker))) return true;
    }
    return false;
  }

  /** The NUL-terminated string at `pointer` in the module's memory, when it looks like one. */
  private stringAt(pointer: unknown): string | undefined {
    const memory = this.memory;
    if (!memory || typeof pointer !== 'number' || pointer <= 0 || pointer >= memory.buffer.byteLength) return undefined;
    const bytes = new Uint8Array(memory.buffer, pointer, Math.min(4096, memory.buffer.byteLength - pointer));
    const end = bytes.indexOf(0);
    if (end <= 0) return undefined;
    return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8');
  }
}
