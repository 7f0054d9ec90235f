import { type FixBySettingsValues, defaultFixBySettings } from '../../../contracts/fix-by.js';
import type { FixBySettings } from '../../../contracts/console/fix-by.js';
import type { Database } from '../engine/database.js';
import type { RecordWrite } from '../derived/change-kinds.js';

/** An organization's fix-by settings as stored: the defaults until it saves its own. */
export interface StoredFixBySettings {
  settings: FixBySettingsValues;
  /** When they were last saved; null for the defaults. */
  updatedAt: string | null;
  /**
   * Names what outcomes and dates depend on (the exposure tags, `unknown_as`; not the deadline
   * policy, which chooses whether deadlines follow them): what a value derived from them is
   * cached under, beside the data's version, as a deadline policy's key (sla-policies.ts).
   * Equal settings have equal keys.
   */
  key: string;
}

/** The key of settings (see {@link StoredFixBySettings.key}): exposure tags compared without case. */
function settingsKey(settings: FixBySettingsValues): string {
  const tags = [...new Set(settings.exposure_tags.map((tag) => tag.trim().toLowerCase()))].sort();
  return `${settings.unknown_as}|${JSON.stringify(tags)}`;
}

/**
 * The SQL of fix_by_settings: a local record of an organization's row, kept across syncs. A
 * save is one store write of the `deadline-policies` kind, as the days per severity are.
 */
export class FixBySettingsRecords {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {}

  /** The organization's settings: its own, or the defaults. */
  get(orgRowId: number): StoredFixBySettings {
    const row = this.db.get<{ deadline_policy: FixBySettingsValues['deadline_policy']; exposure_tags: string; unknown_as: FixBySettingsValues['unknown_as']; updated_at: string }>(
      'SELECT deadline_policy, exposure_tags, unknown_as, updated_at FROM fix_by_settings WHERE org_id = ?',
      [orgRowId],
    );
    if (!row) return { settings: defaultFixBySettings, updatedAt: null, key: settingsKey(defaultFixBySettings) };
    const settings: FixBySettingsValues = { deadline_policy: row.deadline_policy, exposure_tags: JSON.parse(row.exposure_tags) as string[], unknown_as: row.unknown_as };
    return { settings, updatedAt: row.updated_at, key: settingsKey(settings) };
  }

  /** Saves the organization's settings (already validated), stamped with the store's clock. */
  set(orgRowId: number, settings: FixBySettingsValues): StoredFixBySettings {
    this.write(['deadline-policies'], () =>
      this.db.run(
        `INSERT INTO fix_by_settings (org_id, deadline_policy, exposure_tags, unknown_as, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (org_id) DO UPDATE SET deadline_policy = excluded.deadline_policy, exposure_tags = excluded.exposure_tags,
           unknown_as = excluded.unknown_as, updated_at = excluded.updated_at`,
        [orgRowId, settings.deadline_policy, JSON.stringify(settings.exposure_tags), settings.unknown_as, new Date(this.now()).toISOString()],
      ),
    );
    return this.get(orgRowId);
  }
}

/** Stored settings as the console API answers them and `fix-by show --json` prints them. */
export function fixBySettingsAnswer({ settings, updatedAt }: StoredFixBySettings): FixBySettings {
  return { ...settings, updated_at: updatedAt };
}
