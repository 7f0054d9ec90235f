/** The default deadline policy's days per severity, and for KEV, written here without the product's code. */
export const defaultPolicyDays = { critical: 15, high: 30, medium: 90, low: 180, info: null, kev: 14 } as const;

/** A /v1 finding, with what its deadline depends on. */
export interface DeadlineFields {
  status: string;
  severity: string;
  is_kev: boolean;
  first_detected_at: string;
}

/** Whether a finding is open and past its deadline at `atMs` under the default policy (a KEV finding takes the shorter of its two). */
export function pastDefaultDeadline(finding: DeadlineFields, atMs: number): boolean {
  const bySeverity = defaultPolicyDays[finding.severity as keyof typeof defaultPolicyDays];
  const days = finding.is_kev ? Math.min(bySeverity ?? Infinity, defaultPolicyDays.kev) : bySeverity;
  return finding.status === 'open' && days !== null && days !== Infinity && Date.parse(finding.first_detected_at) + days * 86_400_000 < atMs;
}
