import crypto from 'node:crypto';
import path from 'node:path';
import { Database } from '../../store/engine/database.js';
import type { Store } from '../../store/store.js';

/**
 * A digest of every row of every table of what a data directory's files hold: the snapshot with
 * its logs replayed, pages and statements alike, as a reader without the lock opens them
 * (read-only: nothing is written). Two states are the same data exactly when their digests are
 * equal. The snapshot's bytes with the logs' pages alone left out every write logged as
 * statements (most writes, since the log of statements): a write that changed a key or a secret
 * digested as the state before it.
 */
export async function storeDigest(dataDir: string, options: DigestOptions = {}): Promise<string> {
  const db = await Database.open(path.join(dataDir, 'inventory.sqlite'), { readOnly: true });
  try {
    return databaseDigest(db, options);
  } finally {
    db.close();
  }
}

/**
 * The digest of what a store holds in memory, as {@link storeDigest} digests its files: for a
 * writer's states, which the files must give back after a crash. Read from the writer itself,
 * not from its files, the state a write left does not depend on the open's replay it is there
 * to check (with the files' digest on both sides, an open that replayed no statement passed).
 */
export function liveDigest(store: Store, options: DigestOptions = {}): string {
  return databaseDigest((store as unknown as { db: Database }).db, options);
}

/** What a digest leaves out. */
export interface DigestOptions {
  /**
   * The rows of inventories no organization points at (staged, or replaced and left to
   * collection): nobody reads them, and collection deletes them in held writes, a prefix of which
   * a crash may keep (the crash tests, whose states are what readers see).
   */
  collectable?: 'left-out';
}

/** The crash tests' digest: what readers see, without the rows collection deletes a piece at a time. */
export const shownOnly: DigestOptions = { collectable: 'left-out' };

const inventoryTables = new Set(['endpoints', 'remediation_targets', 'scopes', 'findings']);

/**
 * How a table's rows are read in a stable order: by rowid, or, for a table WITHOUT ROWID (the
 * endpoint context's), in the primary key's order its scan follows.
 */
export const inRowOrder = (createSql: string): string => (/WITHOUT\s+ROWID/i.test(createSql) ? '' : ' ORDER BY rowid');

/** The digest of what an open store's database holds, read through it; throws when SQLite's integrity check fails. */
export function databaseDigest(db: Database, { collectable }: DigestOptions = {}): string {
  const integrity = db.value('PRAGMA integrity_check');
  if (integrity !== 'ok') throw new Error(`PRAGMA integrity_check: ${String(integrity)}`);
  const hash = crypto.createHash('sha256');
  for (const [table, sql] of db.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
    hash.update(`\n${String(table)}\n`);
    const shown = collectable === 'left-out' && inventoryTables.has(String(table)) ? ' WHERE org_id IN (SELECT inventory_id FROM organizations)' : '';
    for (const row of db.rows(`SELECT * FROM "${String(table)}"${shown}${inRowOrder(String(sql))}`)) hash.update(JSON.stringify(row, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)));
  }
  return hash.digest('hex').slice(0, 16);
}
