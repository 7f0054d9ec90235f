import type { FindingSeverity } from '../../../contracts/enums';

/** A finding's severity, coloured by class (the colours live in CSS, for both themes). */
export function SeverityBadge({ severity }: { severity: FindingSeverity }) {
  return <span className={`badge badge--${severity}`}>{severity}</span>;
}

/** A status word (open, active, ...) as a neutral badge. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge--status badge--${status}`}>{status}</span>;
}

/** Marks a finding in the known-exploited-vulnerabilities catalog. */
export function KevBadge({ isKev }: { isKev: boolean }) {
  return isKev ? (
    <span className="badge badge--kev" title="In the known exploited vulnerabilities catalog">
      KEV
    </span>
  ) : null;
}
