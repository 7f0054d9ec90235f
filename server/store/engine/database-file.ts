import { constants } from 'node:buffer';
import fs from 'node:fs';

/** What tells one version of the file from another: a persist renames a new file over it. */
interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
}

interface FileRead {
  identity: FileIdentity;
  bytes: Uint8Array;
}

/** One read ahead per file; taken (and forgotten) by the next {@link readDatabaseFile} of it. */
const readsAhead = new Map<string, { read: Promise<FileRead | undefined>; stop: AbortController }>();

/**
 * A file is read in chunks of this size, this many at once: copying a file of hundreds of MiB
 * into a new buffer is bound by the page faults of that buffer, which threads of the pool take
 * in parallel (measured on a 1.46 GB replica, 2 cores: 1.9–2.1 s one chunk at a time, 0.9–1.1 s
 * with 2 to 8 at once). Chunks of 16 MiB read as fast as 64 MiB ones, and hold the pool's
 * other work (an fsync off the thread) back for less.
 */
const chunkBytes = 16 * 2 ** 20;
const chunksAtOnce = 4;

/**
 * Starts reading a database file in the background, before the data-directory lock is taken:
 * `serve` reads its hundreds of MiB while its modules load. {@link readDatabaseFile} uses these
 * bytes only if the file is still the same one once the lock is held.
 */
export function readDatabaseFileAhead(file: string): void {
  if (readsAhead.has(file)) return;
  const stop = new AbortController();
  readsAhead.set(file, { read: readWhole(file, growthRoom, stop.signal).catch(() => undefined), stop });
}

/**
 * Stops the reads ahead that no {@link readDatabaseFile} took (a command that failed before it
 * opened its store), after the chunks under way: a process does not end before its reads do.
 */
export function dropReadsAhead(): void {
  for (const { stop } of readsAhead.values()) stop.abort();
  readsAhead.clear();
}

/**
 * The room left after the bytes of a file read for writing: four times the file (3 GiB at least:
 * the first full sync of a `large` replica into a new data directory reserved 1.9 GB for its
 * findings, and with 256 MiB of room sql.js copied the 150 MB it held by then, `/health` waiting
 * 309 ms), within the largest buffer. sql.js grows its in-memory file by copying the whole of it
 * into a larger array on the thread: on `large`, 1.6–1.7 s each time a full sync of a new replica
 * reserved room for a collection (`Store.reserve`, whose estimate from the first items runs high:
 * 1.9 GB for the findings of a 700 MB replica). The room costs no resident memory: a zeroed buffer
 * this large is mapped lazily, pages filled only where SQLite writes (resident size after opening
 * `large`: 769 MiB with a sixteenth of the file as room, 768 MiB with all of it). Where the system
 * refuses that much address space, the room is a sixteenth of the file.
 */
export const growthRoom = (fileBytes: number) => Math.max(0, Math.min(Math.max(4 * fileBytes, 3 * 2 ** 30), constants.MAX_LENGTH - fileBytes));

/**
 * The zeros kept after a file's bytes in memory: `reserveBytes`, or its {@link growthRoom} when
 * it is read for writing and that is more.
 */
export const roomAfter = (fileBytes: number, reserveBytes: number, forWriting: boolean) => Math.max(reserveBytes, forWriting ? growthRoom(fileBytes) : 0);

/**
 * A zeroed buffer of `contentBytes` and `roomBytes` after them, or with a sixteenth of the
 * content as room (if less) when the system refuses so much: a buffer that large only takes
 * address space, but some systems count it against their memory.
 */
export function roomyBuffer(contentBytes: number, roomBytes: number): Buffer {
  try {
    return Buffer.alloc(contentBytes + roomBytes);
  } catch (error) {
    const leastRoom = Math.min(roomBytes, Math.floor(contentBytes / 16));
    if (!(error instanceof RangeError) || leastRoom >= roomBytes) throw error;
    return Buffer.alloc(contentBytes + leastRoom);
  }
}

/** A database file's bytes, with room after them. */
export interface DatabaseFileBytes {
  /** The file's bytes, then zeros. */
  bytes: Uint8Array;
  /** The file's size: where the zeros start. */
  fileBytes: number;
}

/**
 * The bytes of a database file, or undefined when there is none, followed by `reserveBytes`
 * zero bytes, or its {@link growthRoom} when it is read `forWriting` and that is more. SQLite ignores pages past the size its header records, and fills them before it
 * grows the file: a bulk load given room this way does not make sql.js's in-memory file grow,
 * which copies the whole file every eighth of its size.
 */
export async function readDatabaseFile(
  file: string,
  reserveBytes = 0,
  { forWriting = false }: { forWriting?: boolean } = {},
): Promise<DatabaseFileBytes | undefined> {
  const room = (fileBytes: number) => roomAfter(fileBytes, reserveBytes, forWriting);
  const ahead = readsAhead.get(file);
  readsAhead.delete(file);
  if (ahead) {
    const read = await ahead.read;
    if (read && isSameFile(file, read.identity) && read.bytes.length - read.identity.size >= room(read.identity.size)) {
      return { bytes: read.bytes, fileBytes: read.identity.size };
    }
  }
  const read = await readWhole(file, room);
  return read && { bytes: read.bytes, fileBytes: read.identity.size };
}

function isSameFile(file: string, identity: FileIdentity): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.ino === identity.ino && stat.size === identity.size && stat.mtimeMs === identity.mtimeMs;
}

async function readWhole(file: string, room: (fileBytes: number) => number, stop?: AbortSignal): Promise<FileRead | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    // An empty file is a new database; zeros without a header before them would be no database.
    if (stat.size === 0) return undefined;
    const bytes = roomyBuffer(stat.size, room(stat.size));
    let nextChunk = 0;
    const readChunks = async () => {
      for (let start = nextChunk; start < stat.size; start = nextChunk) {
        stop?.throwIfAborted();
        nextChunk += chunkBytes;
        const end = Math.min(stat.size, start + chunkBytes);
        for (let offset = start; offset < end; ) {
          const { bytesRead } = await handle.read(bytes, offset, end - offset, offset);
          if (bytesRead === 0) throw new Error(`${file} became shorter while it was read`);
          offset += bytesRead;
        }
      }
    };
    await Promise.all(Array.from({ length: chunksAtOnce }, readChunks));
    return { identity: { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs }, bytes };
  } finally {
    await handle.close();
  }
}
