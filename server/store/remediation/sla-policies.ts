import { type SlaPolicy, defaultSlaPolicy, slaPolicyKeys } from '../../../contracts/remediation-deadlines.js';
import type { Database } from '../engine/database.js';
import type { RecordWrite } from '../derived/change-kinds.js';

/** An organization's remediation deadlines as stored: the defaults until it saves its own. */
export interface StoredSlaPolicy {
  policy: SlaPolicy;
  /** When it was last saved; null for the defaults, never edited. */
  updatedAt: string | null;
  /**
   * Names the policy's days: what a value derived from the policy is cached under, beside the
   * data's version (saving a policy changes `deadline-policies`, which keeps the data's caches). Equal
   * policies have equal keys, and give equal figures.
   */
  key: string;
}

/** The key of a policy's days (see {@link StoredSlaPolicy.key}). */
export function slaPolicyKey(policy: SlaPolicy): string {
  return slaPolicyKeys.map((key) => policy[key] ?? '-').join('/');
}

const columns = slaPolicyKeys.map((key) => `${key}_days`);

/**
 * The SQL of the sla_policies table: a local record of an organization's row (not of its
 * inventory), so that a policy stays across syncs, full ones included. Each save is one store
 * write of the `deadline-policies` kind (what is derived from a policy names it in its key).
 */
export class SlaPolicies {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {}

  /** The organization's policy: its own, or the defaults. */
  get(orgRowId: number): StoredSlaPolicy {
    const row = this.db.get<Record<string, number | string | null>>(`SELECT ${columns.join(', ')}, updated_at FROM sla_policies WHERE org_id = ?`, [orgRowId]);
    if (!row) return { policy: defaultSlaPolicy, updatedAt: null, key: slaPolicyKey(defaultSlaPolicy) };
    const policy = Object.fromEntries(slaPolicyKeys.map((key) => [key, row[`${key}_days`] as number | null])) as SlaPolicy;
    return { policy, updatedAt: row.updated_at as string, key: slaPolicyKey(policy) };
  }

  /** Saves the organization's policy (its days already validated), stamped with the store's clock. */
  set(orgRowId: number, policy: SlaPolicy): StoredSlaPolicy {
    this.write(['deadline-policies'], () =>
      this.db.run(
        `INSERT INTO sla_policies (org_id, ${columns.join(', ')}, updated_at) VALUES (?, ${columns.map(() => '?').join(', ')}, ?)
         ON CONFLICT (org_id) DO UPDATE SET ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}, updated_at = excluded.updated_at`,
        [orgRowId, ...slaPolicyKeys.map((key) => policy[key]), new Date(this.now()).toISOString()],
      ),
    );
    return this.get(orgRowId);
  }
}
