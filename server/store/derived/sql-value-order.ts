import type { SqlValue } from 'sql.js';

/** SQLite's order of values: NULL, then numbers, then text by its UTF-8 bytes (code point order outside surrogate pairs). */
export function compareSqlValues(a: SqlValue, b: SqlValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return String(a) < String(b) ? -1 : 1;
}
