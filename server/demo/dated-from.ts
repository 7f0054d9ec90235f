import type { Inventory } from '../../contracts/inventory.js';
import { DAY_MS, iso, referenceMs } from './clock.js';

/**
 * The inventory dated as if generated on the day of `dayMs` rather than at the fixed reference:
 * every timestamp moved by the whole days between them, so that ages, due dates and "last
 * seen" look the same to someone who opens it that day as the fixed data does at the reference.
 * A day before the reference moves nothing (a detection would come before its CVE's
 * publication). New records; the generated ones are shared and read-only.
 */
export function datedFrom(inventory: Inventory, dayMs: number): Inventory {
  const shiftMs = Math.max(0, Math.floor((dayMs - referenceMs) / DAY_MS)) * DAY_MS;
  if (shiftMs === 0) return inventory;
  // Records share their timestamps' strings (a scan's time): each is moved once.
  const moved = new Map<string, string>();
  const move = (at: string) => {
    let to = moved.get(at);
    if (to === undefined) moved.set(at, (to = iso(Date.parse(at) + shiftMs)));
    return to;
  };
  const times = <T extends { created_at: string; updated_at: string }>(record: T): T => ({ ...record, created_at: move(record.created_at), updated_at: move(record.updated_at) });
  return {
    endpoints: inventory.endpoints.map(times),
    remediationTargets: inventory.remediationTargets.map(times),
    scopes: inventory.scopes.map(times),
    findings: inventory.findings.map((finding) => ({
      ...times(finding),
      first_detected_at: move(finding.first_detected_at),
      remediated_at: finding.remediated_at === null ? null : move(finding.remediated_at),
    })),
  };
}
