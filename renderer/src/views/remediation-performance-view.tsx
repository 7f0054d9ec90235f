import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import type { RemediationPerformance } from '../../../contracts/console/deadlines';
import { deadlineExplanation } from '../../../contracts/remediation-deadlines';
import { remediationPerformanceQuery } from '../api/deadline-queries';
import { SeverityBadge } from '../components/badges';
import { endpointContextControls, useEndpointContextFilters } from '../components/endpoint-context-controls';
import { FilterBar } from '../components/filter-bar';
import { Loading, QueryFrame } from '../components/query-state';
import { SlaPolicyForm } from '../components/sla-policy-form';
import { FixBySettingsForm } from '../components/fix-by-settings-form';
import { FixBySummary } from '../components/fix-by-summary';
import { TableHead, figureColumns } from '../components/table-head';
import { formatCount, formatCounted, formatDateTime, formatDays, formatShare } from '../lib/format';
import { paths } from '../lib/paths';
import '../styles/performance.css';

const PerformanceCharts = lazy(() => import('../components/charts/performance-charts'));

/**
 * Are findings fixed in time: the organization's deadlines (edited here), its open and overdue
 * findings and their age per severity, how long remediation takes and how much of it is in
 * time, month by month over a year, the open findings by age, and the open ones per tag;
 * filtered by tag or criticality (in the URL), of the findings of the endpoints they keep.
 */
export function RemediationPerformanceView({ slug }: { slug: string }) {
  const { filters, setFilter } = useEndpointContextFilters();
  const performance = useQuery(remediationPerformanceQuery(slug, filters));
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Remediation performance</h1>
      </header>
      <p className="hint">{deadlineExplanation}</p>
      <FilterBar slug={slug} controls={endpointContextControls} values={filters} onChange={setFilter} />
      <QueryFrame query={performance} what="the remediation performance">
        {(data) => (
          <>
            <Summary slug={slug} performance={data} filters={filters} />
            <FixBySummary slug={slug} />
            <SlaPolicyForm slug={slug} />
            <FixBySettingsForm slug={slug} />
            <SeverityTable slug={slug} performance={data} filters={filters} />
            <TagTable slug={slug} performance={data} filters={filters} />
            <Suspense fallback={<Loading what="the charts" />}>
              <PerformanceCharts performance={data} />
            </Suspense>
          </>
        )}
      </QueryFrame>
    </section>
  );
}

/** The headline figures, as of when they were computed. */
function Summary({ slug, performance, filters }: { slug: string; performance: RemediationPerformance; filters: Record<string, string> }) {
  const { totals } = performance;
  return (
    <>
      <p className="performance-as-of">As of {formatDateTime(performance.as_of)}.</p>
      <ul className="figures" aria-label="Summary">
        <li className="figure">
          <Link to={paths.list(slug, 'findings', { ...filters, overdue: 'true' })} className="figure__link">
            <span className="figure__value figure__value--danger">{formatCount(totals.open_overdue)}</span>
            <span className="figure__label">Open and overdue, of {formatCount(totals.open)} open</span>
          </Link>
        </li>
        <li className="figure">
          <span className="figure__value">{totals.share_in_time === null ? '—' : formatShare(totals.share_in_time)}</span>
          <span className="figure__label">Remediated in time ({formatCount(totals.remediated_in_time)} of {formatCount(totals.remediated_with_deadline)})</span>
        </li>
        <li className="figure">
          <span className="figure__value">{formatDays(totals.median_days_to_remediate)}</span>
          <span className="figure__label">Median time to remediate (mean {formatDays(totals.mean_days_to_remediate)})</span>
        </li>
        <li className="figure">
          <span className="figure__value">{formatDays(totals.median_open_age_days)}</span>
          <span className="figure__label">Median age of open findings</span>
        </li>
      </ul>
      {totals.open_overdue_excepted > 0 ? (
        <p className="hint">Past the due date under an exception, and not counted as overdue: {formatCounted(totals.open_overdue_excepted, 'more open finding')}.</p>
      ) : null}
    </>
  );
}

/** The columns of the table by severity after the severity, in order. */
const severityFigures = ['Deadline', 'Open', 'Overdue', 'Median age', 'Remediated', 'In time', 'Median time to remediate', 'Mean time to remediate'];

/** The columns of the table by tag after the tag, in order. */
const tagFigures = ['Endpoints', 'Open', 'Overdue', 'Median age'];


/** A group's overdue open findings: a link to them in the findings list, or a plain 0. */
function OverdueCell({ count, to }: { count: number; to: string }) {
  return (
    <td className="num">
      {count > 0 ? (
        <Link className="count--overdue" to={to}>
          {formatCount(count)}
        </Link>
      ) : (
        <span className="count--zero">0</span>
      )}
    </td>
  );
}

/** Per severity: the deadline, what is open and late, and how remediation kept to it. */
function SeverityTable({ slug, performance, filters }: { slug: string; performance: RemediationPerformance; filters: Record<string, string> }) {
  const kev = performance.policy.kev;
  return (
    <section className="performance-section" aria-labelledby="by-severity-title">
      <h2 id="by-severity-title">By severity</h2>
      <table className="plain-table performance-table" aria-labelledby="by-severity-title">
        <TableHead columns={['Severity', ...figureColumns(severityFigures)]} />
        <tbody>
          {performance.severities.map((row) => (
            <tr key={row.severity}>
              <td>
                <SeverityBadge severity={row.severity} />
              </td>
              <td className="num">{row.deadline_days === null ? 'none' : formatCounted(row.deadline_days, 'day')}</td>
              <td className="num">{formatCount(row.open)}</td>
              <OverdueCell count={row.open_overdue} to={paths.list(slug, 'findings', { ...filters, overdue: 'true', severity: row.severity })} />
              <td className="num">{formatDays(row.median_open_age_days)}</td>
              <td className="num">{formatCount(row.remediated)}</td>
              <td className="num">{row.share_in_time === null ? '—' : formatShare(row.share_in_time)}</td>
              <td className="num">{formatDays(row.median_days_to_remediate)}</td>
              <td className="num">{formatDays(row.mean_days_to_remediate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        {kev === null ? 'KEV findings have their severity’s deadline.' : `A KEV finding is due within ${formatCounted(kev, 'day')} when that is sooner than its severity’s deadline.`}{' '}
        Medians and means are in days of 24 hours; a median of an even count is the mean of the two middle values.
      </p>
    </section>
  );
}

/** Per tag of the endpoints: their open findings, the overdue ones (linked to the findings list filtered by the tag), their median age. */
function TagTable({ slug, performance, filters }: { slug: string; performance: RemediationPerformance; filters: Record<string, string> }) {
  return (
    <section className="performance-section" aria-labelledby="by-tag-title">
      <h2 id="by-tag-title">By tag</h2>
      {performance.tags.length === 0 ? (
        <p className="state">No endpoint carries a tag: set tags on endpoints, or add tag rules, to see the figures of each group.</p>
      ) : (
        <table className="plain-table performance-table" aria-labelledby="by-tag-title">
          <TableHead columns={['Tag', ...figureColumns(tagFigures)]} />
          <tbody>
            {performance.tags.map((row) => (
              <tr key={row.tag}>
                <td>
                  <Link to={paths.list(slug, 'findings', { ...filters, tag: row.tag, status: 'open' })}>{row.tag}</Link>
                </td>
                <td className="num">{formatCount(row.endpoints)}</td>
                <td className="num">{formatCount(row.open)}</td>
                <OverdueCell count={row.open_overdue} to={paths.list(slug, 'findings', { ...filters, tag: row.tag, overdue: 'true' })} />
                <td className="num">{formatDays(row.median_open_age_days)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
