/**
 * What exceptions leave out, computed here from the exceptions as the API lists them and the
 * findings as /v1 answers them, written out plainly rather than imported from the store.
 */

/** What the oracle reads of an exception. */
export interface OracleException {
  id: string;
  scope: { kind: 'cve'; cve_id: string } | { kind: 'cve_on_endpoints'; cve_id: string; endpoint_ids: string[] } | { kind: 'finding'; finding_id: string };
  reason: string;
  expires_at: string;
  revoked_at: string | null;
}

/** What the oracle reads of a finding. */
export interface OracleFinding {
  id: string;
  cve_id: string;
  endpoint_id: string | null;
}

/** The exceptions in force at `now` (ms): not revoked, expiring after it. */
export function inForceAt<T extends OracleException>(exceptions: readonly T[], now: number): T[] {
  return exceptions.filter((exception) => exception.revoked_at === null && Date.parse(exception.expires_at) > now);
}

/** Whether an exception's scope names a finding: its CVE (case aside), on the endpoints named if any, or the finding itself. */
export function scopeNames(exception: OracleException, finding: OracleFinding): boolean {
  const { scope } = exception;
  if (scope.kind === 'finding') return scope.finding_id.toLowerCase() === finding.id.toLowerCase();
  if (scope.cve_id.toUpperCase() !== finding.cve_id.toUpperCase()) return false;
  return scope.kind === 'cve' || (finding.endpoint_id !== null && scope.endpoint_ids.includes(finding.endpoint_id.toLowerCase()));
}

/** The mark a finding carries: of the exceptions in force that name it, the one expiring last, then the first by id; null for none. */
export function markOf(inForce: readonly OracleException[], finding: OracleFinding): { id: string; reason: string; expires_at: string } | null {
  const covering = inForce
    .filter((exception) => scopeNames(exception, finding))
    .sort((a, b) => Date.parse(b.expires_at) - Date.parse(a.expires_at) || (a.id < b.id ? -1 : 1));
  const chosen = covering[0];
  return chosen ? { id: chosen.id, reason: chosen.reason, expires_at: chosen.expires_at } : null;
}

/** The ids of the findings the exceptions in force leave out. */
export function exceptedIds(inForce: readonly OracleException[], findings: readonly OracleFinding[]): Set<string> {
  return new Set(findings.filter((finding) => inForce.some((exception) => scopeNames(exception, finding))).map((finding) => finding.id));
}
