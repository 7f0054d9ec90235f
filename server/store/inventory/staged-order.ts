import type { Database } from '../engine/database.js';
import type { InventoryTable } from '../basics/inventory-ids.js';

/** Rows whose keys one read fetches. */
const keysPerRead = 5_000;
/** Rows one write copies: a write of about 15 ms for findings (14 indexes). */
const rowsPerWrite = 1_000;
/** Keys sorted at once before the slices are merged: a few milliseconds. */
const sliceLength = 8_192;
/** Keys merged between two turns of the event loop. */
const mergesPerTurn = 65_536;

/** What ordering a staged collection needs of the store: its database, its quiet writes, and a turn of the event loop. */
export interface OrderingContext {
  db: Database;
  write: <T>(work: () => T) => T;
  pause: () => Promise<void>;
}

/**
 * The seqs of an inventory's rows of `table` in the lists' default order (created_at as an
 * instant, then id). The keys are read a chunk at a time into typed arrays (24 bytes a row, not
 * an object per row): instants in seq order, and each row's rank in id order from the
 * (org_id, id) index, so that no string is compared; the order is then merge-sorted a slice at
 * a time. Nobody else writes a staged inventory, so the chunks read one state.
 */
export async function defaultOrderOf({ db, pause }: OrderingContext, table: InventoryTable, inventoryId: number): Promise<Float64Array> {
  const count = Number(db.value(`SELECT count(*) FROM ${table} WHERE org_id = ?`, [inventoryId]));
  const seqs = new Float64Array(count);
  const instants = new Float64Array(count);
  for (let filled = 0, after = Number.MIN_SAFE_INTEGER; filled < count; ) {
    const rows = db.all<{ seq: number; created_at: string }>(`SELECT seq, created_at FROM ${table} WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ?`, [
      inventoryId,
      after,
      keysPerRead,
    ]);
    if (rows.length === 0) throw new Error(`The staged ${table} changed while they were ordered`);
    for (const row of rows) {
      seqs[filled] = row.seq;
      instants[filled++] = Date.parse(row.created_at);
    }
    after = rows[rows.length - 1]!.seq;
    await pause();
  }
  const idRanks = new Int32Array(count);
  for (let rank = 0, after = ''; rank < count; ) {
    const rows = db.all<{ seq: number; id: string }>(`SELECT seq, id FROM ${table} WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?`, [inventoryId, after, keysPerRead]);
    if (rows.length === 0) throw new Error(`The staged ${table} changed while they were ordered`);
    for (const row of rows) idRanks[positionOf(seqs, row.seq)] = rank++;
    after = rows[rows.length - 1]!.id;
    await pause();
  }
  const order = await sortInSlices(count, (a, b) => instants[a]! - instants[b]! || idRanks[a]! - idRanks[b]!, pause);
  return Float64Array.from(order, (position) => seqs[position]!);
}

/**
 * Copies the rows at `seqs`, in that order, under the inventory `to`: each copy gets the next
 * seq, so the copies' seq order is the order given. A chunk of rows per write.
 */
export async function copyInOrder({ db, write, pause }: OrderingContext, table: InventoryTable, seqs: Float64Array, to: number): Promise<void> {
  const names = db.column(`SELECT name FROM pragma_table_info('${table}')`) as string[];
  const columns = names.filter((name) => name !== 'seq' && name !== 'org_id').join(', ');
  const copy = `INSERT INTO ${table} (org_id, ${columns}) SELECT ?, ${columns} FROM ${table} WHERE seq = ?`;
  for (let start = 0; start < seqs.length; start += rowsPerWrite) {
    write(() => {
      for (const seq of seqs.subarray(start, start + rowsPerWrite)) db.run(copy, [to, seq]);
    });
    await pause();
  }
}

/** Where `seq` is in the ascending `seqs`. */
function positionOf(seqs: Float64Array, seq: number): number {
  let low = 0;
  let high = seqs.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (seqs[middle]! < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The positions 0 … count - 1 sorted by `compare`: slices sorted in place, then merged pairwise,
 * with a turn of the event loop after each slice and every {@link mergesPerTurn} keys merged.
 */
async function sortInSlices(count: number, compare: (a: number, b: number) => number, pause: () => Promise<void>): Promise<Uint32Array> {
  let from = new Uint32Array(count);
  for (let i = 0; i < count; i++) from[i] = i;
  for (let start = 0; start < count; start += sliceLength) {
    from.subarray(start, start + sliceLength).sort(compare);
    await pause();
  }
  let to = new Uint32Array(count);
  for (let width = sliceLength; width < count; width *= 2) {
    let merged = 0;
    for (let low = 0; low < count; low += 2 * width) {
      const middle = Math.min(low + width, count);
      const high = Math.min(low + 2 * width, count);
      let left = low;
      let right = middle;
      let out = low;
      while (left < middle && right < high) to[out++] = compare(from[left]!, from[right]!) <= 0 ? from[left++]! : from[right++]!;
      while (left < middle) to[out++] = from[left++]!;
      while (right < high) to[out++] = from[right++]!;
      merged += high - low;
      if (merged >= mergesPerTurn) {
        await pause();
        merged = 0;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
