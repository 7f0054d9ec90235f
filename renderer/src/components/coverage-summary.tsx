import type { CoverageCounts, UnevaluatedCriterion } from '../../../contracts/console/coverage';
import { formatCount } from '../lib/format';

/** The counts of a set of findings (covered by a scope, or gaps) as a row of figures. */
export function CoverageFigures({ counts, label }: { counts: CoverageCounts; label: string }) {
  const figures: [string, number][] = [
    [label, counts.findings],
    ['Open', counts.openFindings],
    ['Endpoints', counts.endpoints],
    ['Remediation targets', counts.remediationTargets],
    ['Critical', counts.bySeverity.critical],
    ['High', counts.bySeverity.high],
  ];
  return (
    <ul className="figures" aria-label="Counts">
      {figures.map(([name, value]) => (
        <li key={name} className="figure">
          <span className="figure__value">{formatCount(value)}</span>
          <span className="figure__label">{name}</span>
        </li>
      ))}
    </ul>
  );
}

/** Says which criteria were not applied and why: the counts are only as good as what could be evaluated. */
export function UnevaluatedNotice({ criteria }: { criteria: (UnevaluatedCriterion & { scopeId?: string })[] }) {
  if (criteria.length === 0) return null;
  return (
    <div className="notice" role="note">
      <h2>Not evaluated</h2>
      <ul>
        {criteria.map((criterion) => (
          <li key={`${criterion.scopeId ?? ''}${criterion.field}`}>
            <code>{criterion.field}</code>: {criterion.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
