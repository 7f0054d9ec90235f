import type { Database } from '../engine/database.js';
import type { RecordWrite } from '../derived/change-kinds.js';

/** An organization's agent settings as stored; null where a setting is not set. */
export interface StoredAgentSettings {
  serverUrl: string | null;
  teamId: string | null;
  /** Null for the default bundle id. */
  bundleId: string | null;
  /** When they were last saved; null when the organization never saved any. */
  updatedAt: string | null;
}

interface AgentSettingsRow {
  server_url: string | null;
  team_id: string | null;
  bundle_id: string | null;
  updated_at: string;
}

/**
 * The SQL of the agent_settings table: a local record of an organization's row (not of its
 * inventory), so that its settings stay across syncs, full ones included. Each save is one
 * store write of the `agent-settings` kind: no value derived from the data reads them.
 */
export class AgentSettingsRecords {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {}

  /** The organization's settings; all null when it has none. */
  get(orgRowId: number): StoredAgentSettings {
    const row = this.db.get<AgentSettingsRow>('SELECT server_url, team_id, bundle_id, updated_at FROM agent_settings WHERE org_id = ?', [orgRowId]);
    if (!row) return { serverUrl: null, teamId: null, bundleId: null, updatedAt: null };
    return { serverUrl: row.server_url, teamId: row.team_id, bundleId: row.bundle_id, updatedAt: row.updated_at };
  }

  /** Saves the organization's settings (already validated), stamped with the store's clock. */
  set(orgRowId: number, settings: Omit<StoredAgentSettings, 'updatedAt'>): StoredAgentSettings {
    this.write(['agent-settings'], () =>
      this.db.run(
        `INSERT INTO agent_settings (org_id, server_url, team_id, bundle_id, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (org_id) DO UPDATE SET server_url = excluded.server_url, team_id = excluded.team_id,
           bundle_id = excluded.bundle_id, updated_at = excluded.updated_at`,
        [orgRowId, settings.serverUrl, settings.teamId, settings.bundleId, new Date(this.now()).toISOString()],
      ),
    );
    return this.get(orgRowId);
  }
}
