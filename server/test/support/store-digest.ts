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

/**
 * How a table's rows are read in a stable order: by rowid, or, for a table WITHOUT ROWID (the
 * endpoint context's), in the primary key's order its scan follows.
 */
export const inRowOrder = (createSql: string): string => (/WITHOUT\s+ROWID/i.test(createSql) ? '' : ' ORDER BY rowid');

/** The digest of a database's bytes; throws when SQLite's integrity check fails. */
export function digestOf(bytes: Uint8Array | undefined): string {
  if (!bytes) return 'empty';
  const db = new SQL.Database(bytes);
  try {
    const integrity = db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0];
    if (integrity !== 'ok') throw new Error(`PRAGMA integrity_check: ${String(integrity)}`);
    const hash = crypto.createHash('sha256');
    const tables = db.exec("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values ?? [];
    for (const [table, sql] of tables) {
      hash.update(`\n${String(table)}\n`);
      for (const row of db.exec(`SELECT * FROM "${String(table)}"${inRowOrder(String(sql))}`)[0]?.values ?? []) hash.update(JSON.stringify(row, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)));
    }
    return hash.digest('hex').slice(0, 16);
  } finally {
    db.close();
  }
}
