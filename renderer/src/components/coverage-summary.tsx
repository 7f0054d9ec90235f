import type { CoverageCounts, UnevaluatedCriterion } from '../../../contracts/console/coverage';
import { Link } from 'react-router';
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

/** A criterion that was not applied, and the scope it belongs to where several scopes are summed up. */
type Unevaluated = UnevaluatedCriterion & { scopeId?: string; scopeName?: string };

/**
 * Says which criteria were not applied and why: the counts are only as good as what could be
 * evaluated. The same criterion of several scopes is said once, naming those scopes.
 */
export function UnevaluatedNotice({ criteria, scopeLink }: { criteria: Unevaluated[]; scopeLink?: (scopeId: string) => string }) {
  if (criteria.length === 0) return null;
  const groups = new Map<string, { criterion: Unevaluated; scopes: { id: string; name: string }[] }>();
  for (const criterion of criteria) {
    const key = `${criterion.field}\n${criterion.reason}`;
    const group = groups.get(key) ?? { criterion, scopes: [] };
    if (criterion.scopeId) group.scopes.push({ id: criterion.scopeId, name: criterion.scopeName ?? criterion.scopeId });
    groups.set(key, group);
  }
  return (
    <div className="notice" role="note">
      <h2>Not evaluated</h2>
      <ul>
        {[...groups].map(([key, { criterion, scopes }]) => (
          <li key={key}>
            <code>{criterion.field}</code>: {criterion.reason}
            {scopes.length > 0 ? (
              <>
                {' '}
                {scopes.length === 1 ? 'Scope' : `${scopes.length} scopes`}:{' '}
                {scopes.map((scope, index) => (
                  <span key={scope.id}>
                    {index > 0 ? ', ' : null}
                    {scopeLink ? <Link to={scopeLink(scope.id)}>{scope.name}</Link> : scope.name}
                  </span>
                ))}
                .
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
