import type { ExceptionRecord, ExceptionScope } from '../../../contracts/console/exceptions.js';
import type { ExceptionReason } from '../../../contracts/console/exception-basics.js';
import type { Database } from '../engine/database.js';

/** An exception in force at a moment: what the figures and the findings' marks read of it. */
export interface InForceException {
  id: string;
  scope: ExceptionScope;
  reason: ExceptionReason;
  expires_at: string;
  expiresMs: number;
}

interface ExceptionRow {
  id: string;
  scope_kind: ExceptionScope['kind'];
  cve_id: string | null;
  endpoint_ids: string | null;
  finding_id: string | null;
  reason: ExceptionReason;
  note: string;
  expires_at: string;
  expires_ms: number;
  created_by: string;
  created_at: string;
  updated_by: string | null;
  updated_at: string | null;
  revoked_by: string | null;
  revoked_at: string | null;
}

function scopeOf(row: Pick<ExceptionRow, 'scope_kind' | 'cve_id' | 'endpoint_ids' | 'finding_id'>): ExceptionScope {
  switch (row.scope_kind) {
    case 'cve':
      return { kind: 'cve', cve_id: row.cve_id! };
    case 'cve_on_endpoints':
      return { kind: 'cve_on_endpoints', cve_id: row.cve_id!, endpoint_ids: JSON.parse(row.endpoint_ids!) as string[] };
    case 'finding':
      return { kind: 'finding', finding_id: row.finding_id! };
  }
}

/** The scope's columns, in the order of the table's. */
function scopeColumns(scope: ExceptionScope): [string, string | null, string | null, string | null] {
  switch (scope.kind) {
    case 'cve':
      return [scope.kind, scope.cve_id, null, null];
    case 'cve_on_endpoints':
      return [scope.kind, scope.cve_id, JSON.stringify(scope.endpoint_ids), null];
    case 'finding':
      return [scope.kind, null, null, scope.finding_id];
  }
}

/** The columns of an exception's row, its organization aside. */
const columns = `id, scope_kind, cve_id, endpoint_ids, finding_id, reason, note, expires_at, expires_ms,
                 created_by, created_at, updated_by, updated_at, revoked_by, revoked_at`;

function recordOf(row: ExceptionRow): ExceptionRecord {
  const { id, scope_kind: _kind, cve_id: _cve, endpoint_ids: _endpoints, finding_id: _finding, expires_ms: _ms, ...fields } = row;
  return { id, scope: scopeOf(row), ...fields };
}

/**
 * The SQL of the exceptions table: local records of an organization, kept across syncs and
 * written inside `Store.write` of `exceptions` (they change no inventory row, so the caches
 * of the data stay; what is derived from them keys on them, see exception-matches.ts).
 */
export class ExceptionRecords {
  constructor(private readonly db: Database) {}

  /** Every exception of the organization, newest first. */
  list(orgRowId: number): ExceptionRecord[] {
    return this.db.all<ExceptionRow>(`SELECT ${columns} FROM exceptions WHERE org_id = ? ORDER BY created_at DESC, id`, [orgRowId]).map(recordOf);
  }

  /** One exception of the organization, or undefined. */
  get(orgRowId: number, id: string): ExceptionRecord | undefined {
    const row = this.db.get<ExceptionRow>(`SELECT ${columns} FROM exceptions WHERE org_id = ? AND id = ?`, [orgRowId, id.toLowerCase()]);
    return row && recordOf(row);
  }

  /** Stores a new exception, or replaces the one of its id (its scope included). */
  put(orgRowId: number, record: ExceptionRecord): void {
    this.db.run(
      `INSERT OR REPLACE INTO exceptions (org_id, ${columns})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId,
        record.id.toLowerCase(),
        ...scopeColumns(record.scope),
        record.reason,
        record.note,
        record.expires_at,
        Date.parse(record.expires_at),
        record.created_by,
        record.created_at,
        record.updated_by,
        record.updated_at,
        record.revoked_by,
        record.revoked_at,
      ],
    );
  }

  /** The organization's exceptions in force at `now` (ms): not revoked, expiring after it; by id. */
  inForce(orgRowId: number, now: number): InForceException[] {
    return this.db
      .all<ExceptionRow>(
        `SELECT id, scope_kind, cve_id, endpoint_ids, finding_id, reason, expires_at, expires_ms FROM exceptions
         WHERE org_id = ? AND revoked_at IS NULL AND expires_ms > ? ORDER BY id`,
        [orgRowId, now],
      )
      .map((row) => ({ id: row.id, scope: scopeOf(row), reason: row.reason, expires_at: row.expires_at, expiresMs: row.expires_ms }));
  }
}
