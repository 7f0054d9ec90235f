/**
 * The facts of exceptions (risk acceptances) that the console's controls and the server share,
 * free of zod so that the renderer imports them as values (docs/decisions/layers/layers.md, "The renderer
 * loads no zod"). The schemas are in exceptions.ts.
 */

/** Why a finding is accepted, as Microsoft Defender's exception justifications name them. */
export const exceptionReasons = ['compensating_control', 'risk_accepted', 'false_positive', 'planned_remediation'] as const;
export type ExceptionReason = (typeof exceptionReasons)[number];

/** Each reason as the console writes it. */
export const exceptionReasonLabels: Record<ExceptionReason, string> = {
  compensating_control: 'Compensating control',
  risk_accepted: 'Risk accepted',
  false_positive: 'False positive',
  planned_remediation: 'Planned remediation',
};

/**
 * Where an exception stands at a moment: `active` until it expires or is revoked, `expired`
 * from its expiry on (with no write: the moment decides), `revoked` once revoked, whatever its
 * expiry. Only an active exception leaves findings out.
 */
export const exceptionStates = ['active', 'expired', 'revoked'] as const;
export type ExceptionState = (typeof exceptionStates)[number];

/**
 * What an exception covers: a CVE on every endpoint of the organization, a CVE on chosen
 * endpoints, or one finding. They name CVE ids, endpoint ids and finding ids as /v1 does, which
 * stay the same across syncs, full ones included.
 */
export const exceptionScopeKinds = ['cve', 'cve_on_endpoints', 'finding'] as const;
export type ExceptionScopeKind = (typeof exceptionScopeKinds)[number];

/** The bounds of what an exception and an import hold. */
export const exceptionLimits = {
  noteLength: 2_000,
  endpointsPerException: 1_000,
  exceptionsPerImport: 10_000,
  userNameLength: 200,
} as const;

/** The name and version of the exported file's format, which an import checks. */
export const exceptionsFileFormat = { format: 'remediation-console-exceptions', version: 1 } as const;

/**
 * The latest expiry an exception may have when made or edited at `now` (ms): the same moment
 * one year later, by the calendar (UTC), so that "a year ahead" means what a person expects.
 */
export function latestExceptionExpiry(now: number): number {
  const date = new Date(now);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.getTime();
}
