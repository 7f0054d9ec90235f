import crypto from 'node:crypto';
import path from 'node:path';
import { loadSqlJs } from '../../store/engine/sql-js.js';
import { readStoreImage } from '../../store/engine/store-image.js';

// The product's loader: sql.js keeps the first module a process initialises.
const { SQL } = await loadSqlJs();

/**
 * A digest of every row of every table of what a data directory's files hold (the snapshot with
 * its logs replayed), read with a plain sql.js of its own: two states are the same data exactly
 * when their digests are equal.
 */
export async function storeDigest(dataDir: string): Promise<string> {
  return digestOf((await readStoreImage(path.join(dataDir, 'inventory.sqlite'), { holdsLock: false })).bytes);
}

/** The digest of a database's bytes. */
export function digestOf(bytes: Uint8Array | undefined): string {
  if (!bytes) return 'empty';
  const db = new SQL.Database(bytes);
  try {
    const hash = crypto.createHash('sha256');
    const tables = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values.map(([name]) => String(name)) ?? [];
    for (const table of tables) {
      hash.update(`\n${table}\n`);
      for (const row of db.exec(`SELECT * FROM "${table}" ORDER BY rowid`)[0]?.values ?? []) hash.update(JSON.stringify(row, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)));
    }
    return hash.digest('hex').slice(0, 16);
  } finally {
    db.close();
  }
}
