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
  if (!readsAhead.has(file)) readsAhead.set(file, readWhole(file, 0).catch(() => undefined));
}

/**
 * The bytes of a database file, or undefined when there is none, followed by `reserveBytes`
 * zero bytes. SQLite ignores pages past the size its header records, and fills them before it
 * grows the file: a bulk load given room this way does not make sql.js's in-memory file grow,
 * which copies the whole file every eighth of its size.
 */
export async function readDatabaseFile(file: string, reserveBytes = 0): Promise<Uint8Array | undefined> {
  const ahead = readsAhead.get(file);
  readsAhead.delete(file);
  if (ahead && reserveBytes === 0) {
    const read = await ahead;
    if (read && isSameFile(file, read.identity)) return read.bytes;
  }
  return (await readWhole(file, reserveBytes))?.bytes;
}

function isSameFile(file: string, identity: FileIdentity): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.ino === identity.ino && stat.size === identity.size && stat.mtimeMs === identity.mtimeMs;
}

async function readWhole(file: string, reserveBytes: number): Promise<FileRead | undefined> {
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
    const bytes = Buffer.alloc(stat.size + reserveBytes);
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
