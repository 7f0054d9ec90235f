import { type EpssChange, type EpssHistory, epssAttribution } from '../../../contracts/console/threat-intel.js';
import type { Database } from '../engine/database.js';
import { cveKey } from './cve-key.js';

/** The spans of a CVE's EPSS change, in days. */
const spans = [7, 30] as const;

const dayMs = 86_400_000;

/** The UTC day of a date-time, as milliseconds at its midnight: imports are compared by day, whatever their hour. */
const dayOf = (dateTime: string) => Date.parse(`${dateTime.slice(0, 10)}T00:00:00Z`);

/**
 * A CVE's kept EPSS history and its 7- and 30-day change: the newest EPSS import's score less
 * that of the newest kept import dated at least that many days before it. Never computed across
 * model versions: scores of different models are not comparable (FIRST), so the change is then
 * null with the reason, as it is when no file is imported, the newest does not score the CVE,
 * or no import kept is old enough (docs/decisions/exploit-intelligence/epss-change-over-7-and-30-days-never-across.md).
 */
export function epssHistory(db: Database, cveId: string): EpssHistory {
  const key = cveKey(cveId);
  const newest = db.get<{ id: number; source_date: string; version: string | null }>(
    "SELECT id, source_date, version FROM intel_imports WHERE kind = 'epss' AND finished = 1 ORDER BY source_date DESC, id DESC LIMIT 1",
  );
  const history = db
    .all<{ import_id: number; score_date: string; model_version: string | null; epss: number; percentile: number }>(
      `SELECT h.import_id, i.source_date AS score_date, i.version AS model_version, h.epss, h.percentile
       FROM epss_history h JOIN intel_imports i ON i.id = h.import_id
       WHERE h.cve_key = ? AND i.finished = 1 ORDER BY i.source_date DESC, i.id DESC`,
      [key ?? -1],
    );
  const latest = newest && history.find((point) => point.import_id === newest.id);
  const changes = spans.map((days): EpssChange => {
    if (!newest) return { days, change: null, from_date: null, gap: 'no-file' };
    if (!latest) return { days, change: null, from_date: null, gap: 'not-scored' };
    const earlier = history.find((point) => dayOf(point.score_date) <= dayOf(latest.score_date) - days * dayMs);
    if (!earlier) return { days, change: null, from_date: null, gap: 'no-earlier-import' };
    if (earlier.model_version !== latest.model_version) return { days, change: null, from_date: earlier.score_date, gap: 'model-changed' };
    // Rounded to FIRST's 5 decimals: a difference of two such figures has no more.
    return { days, change: Math.round((latest.epss - earlier.epss) * 100_000) / 100_000, from_date: earlier.score_date, gap: null };
  });
  return { cve_id: cveId.toUpperCase(), history, changes, attribution: epssAttribution };
}
