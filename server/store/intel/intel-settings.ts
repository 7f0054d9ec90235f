import { type IntelSettings, defaultEpssRise, defaultEpssThreshold } from '../../../contracts/console/threat-intel-changes.js';
import type { Database } from '../engine/database.js';

/** The installation's intelligence settings (intel_settings, one row); the defaults until some are saved. */
export function readIntelSettings(db: Database): IntelSettings {
  return db.get<IntelSettings>('SELECT epss_threshold, epss_rise FROM intel_settings WHERE id = 1') ?? { epss_threshold: defaultEpssThreshold, epss_rise: defaultEpssRise };
}

/** Saves the settings (in the caller's write). */
export function saveIntelSettings(db: Database, settings: IntelSettings): void {
  db.run(
    'INSERT INTO intel_settings (id, epss_threshold, epss_rise) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET epss_threshold = excluded.epss_threshold, epss_rise = excluded.epss_rise',
    [settings.epss_threshold, settings.epss_rise],
  );
}
