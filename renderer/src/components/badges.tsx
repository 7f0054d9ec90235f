import type { EndpointCriticality, FindingSeverity } from '../../../contracts/enums';
import { criticalityFactors } from '../../../contracts/risk-score';
import { formatDate } from '../lib/format';

/** A finding's severity, coloured by class (the colours live in CSS, for both themes). */
export function SeverityBadge({ severity }: { severity: FindingSeverity }) {
  return <span className={`badge badge--${severity}`}>{severity}</span>;
}

/** An endpoint's criticality, unless `normal`: coloured as the severity of the same name (low as low). */
export function CriticalityBadge({ criticality }: { criticality: EndpointCriticality }) {
  if (criticality === 'normal') return null;
  return (
    <span className={`badge badge--${criticality}`} title={`Criticality ${criticality}: its findings' risk counts ×${criticalityFactors[criticality]}`}>
      {criticality}
    </span>
  );
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

/** A finding's due date; an overdue one marked, in words too for assistive technology. */
export function DueDate({ dueAt, overdue }: { dueAt: string | null; overdue: boolean }) {
  if (!overdue) return <span className="due">{formatDate(dueAt)}</span>;
  return (
    <span className="due due--overdue" title="Overdue: open past its due date">
      {formatDate(dueAt)}
      <span className="visually-hidden"> (overdue)</span>
    </span>
  );
}
