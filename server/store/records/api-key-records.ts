import crypto from 'node:crypto';
import type { Database } from '../engine/database.js';
import type { ChangeKind, RecordWrite } from '../derived/change-kinds.js';

/** A local API key as listed: the key itself is shown once, at creation, and never stored. */
export interface ApiKeyInfo {
  id: string;
  /** The last characters of the key, so that a user can tell keys apart. */
  hint: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

const keyPrefix = 'rc_';
/** What a key's creation or revocation changes: the v1 API's lookup of keys reads it. */
const keyChanges: readonly ChangeKind[] = ['api-keys'];

/** The stored form of a key: its SHA-256, enough for a 256-bit random secret. */
export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** The SQL of the api_keys table; each change one store write of {@link keyChanges}. */
export class ApiKeyRecords {
  constructor(
    private readonly db: Database,
    private readonly write: RecordWrite,
  ) {}

  /** Creates a key for an organization and returns it: the only time it is seen. */
  create(orgRowId: number, label: string | null): { key: string; info: ApiKeyInfo } {
    const key = keyPrefix + crypto.randomBytes(32).toString('base64url');
    const info: ApiKeyInfo = {
      id: crypto.randomUUID(),
      hint: key.slice(-4),
      label,
      createdAt: new Date().toISOString(),
      revokedAt: null,
    };
    this.write(keyChanges, () =>
      this.db.run('INSERT INTO api_keys (id, org_id, key_hash, hint, label, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        info.id,
        orgRowId,
        hashApiKey(key),
        info.hint,
        label,
        info.createdAt,
      ]),
    );
    return { key, info };
  }

  list(orgRowId: number): ApiKeyInfo[] {
    return this.db
      .all<{ id: string; hint: string; label: string | null; created_at: string; revoked_at: string | null }>(
        'SELECT id, hint, label, created_at, revoked_at FROM api_keys WHERE org_id = ? ORDER BY created_at, rowid',
        [orgRowId],
      )
      .map((row) => ({ id: row.id, hint: row.hint, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at }));
  }

  /** Revokes a key of the organization; false when it has no such active key. */
  revoke(orgRowId: number, keyId: string): boolean {
    return this.write(keyChanges, () => this.db.run('UPDATE api_keys SET revoked_at = ? WHERE org_id = ? AND id = ? AND revoked_at IS NULL', [new Date().toISOString(), orgRowId, keyId]) > 0);
  }

  /** The organization row id an active key belongs to. */
  organizationOf(key: string): number | undefined {
    if (!key.startsWith(keyPrefix) || key.length > 128) return undefined;
    const orgRowId = this.db.value('SELECT org_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL', [
      hashApiKey(key),
    ]);
    return typeof orgRowId === 'number' ? orgRowId : undefined;
  }
}
