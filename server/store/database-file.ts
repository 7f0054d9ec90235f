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
const readsAhead = new Map<string, Promise<FileRead | undefined>>();

/** Large reads, so that a file of hundreds of MiB takes a few round trips to the thread pool. */
const chunkBytes = 64 * 2 ** 20;

/**
 * Starts reading a database file in the background, before the data-directory lock is taken:
 * `serve` reads its hundreds of MiB while its modules load. {@link readDatabaseFile} uses these
 * bytes only if the file is still the same one once the lock is held.
 */
export function readDatabaseFileAhead(file: string): void {
  if (!readsAhead.has(file)) readsAhead.set(file, readWhole(file, growthRoom).catch(() => undefined));
}

/**
 * The room left after the bytes of a file read for writing: four times the file (256 MiB at
 * least), within the largest buffer. sql.js grows its in-memory file by copying the whole of it
 * into a larger array on the thread: on `large`, 1.6–1.7 s each time a full sync of a new
 * replica reserved room for a collection (`Store.reserve`, whose estimate from the first items
 * runs high: 1.9 GB for the findings of a 700 MB replica). The room costs no resident memory:
 * a zeroed buffer this large is mapped lazily, pages filled only where SQLite writes (resident
 * size after opening `large`: 769 MiB with a sixteenth of the file as room, 768 MiB with all of
 * it). Where the system refuses that much address space, the room is a sixteenth of the file.
 */
export const growthRoom = (fileBytes: number) => Math.max(0, Math.min(Math.max(4 * fileBytes, 256 * 2 ** 20), constants.MAX_LENGTH - fileBytes));

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
  const room = (fileBytes: number) => Math.max(reserveBytes, forWriting ? growthRoom(fileBytes) : 0);
  const ahead = readsAhead.get(file);
  readsAhead.delete(file);
  if (ahead) {
    const read = await ahead;
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

async function readWhole(file: string, room: (fileBytes: number) => number): Promise<FileRead | undefined> {
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
    let offset = 0;
    while (offset < stat.size) {
      const { bytesRead } = await handle.read(bytes, offset, Math.min(chunkBytes, stat.size - offset), offset);
      if (bytesRead === 0) throw new Error(`${file} became shorter while it was read`);
      offset += bytesRead;
    }
    return { identity: { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs }, bytes };
  } finally {
    await handle.close();
  }
}
