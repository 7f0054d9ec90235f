import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import { dashboardQuery, syncOverviewQuery } from '../api/console-queries';
import { remediationPerformanceQuery } from '../api/deadline-queries';
import { endpointContextControls, useEndpointContextFilters } from '../components/endpoint-context-controls';
import { FilterBar } from '../components/filter-bar';
import { Loading, QueryError } from '../components/query-state';
import { ReconcileStatus } from '../components/reconcile-status';
import { formatCount, formatDays, formatShare } from '../lib/format';
import { paths } from '../lib/paths';
import '../styles/performance.css';

const DashboardChartGrid = lazy(() => import('../components/charts/dashboard-chart-grid'));

/**
 * The organization at a glance: totals linked to their lists, and the charts; filtered by tag or
 * criticality (in the URL), of the endpoints they keep, and the lists it links to filtered alike.
 */
export function DashboardView({ slug }: { slug: string }) {
  const { filters, setFilter } = useEndpointContextFilters();
  const dashboard = useQuery(dashboardQuery(slug, filters));
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Dashboard</h1>
      </header>
      <ReplicaMatch slug={slug} />
      <FilterBar slug={slug} controls={endpointContextControls} values={filters} onChange={setFilter} />
      {dashboard.isPending ? (
        <Loading what="the dashboard" />
      ) : dashboard.isError ? (
        <QueryError error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : (
        <>
          <ul className="figures" aria-label="Totals">
            {(
              [
                ['Endpoints', dashboard.data.totals.endpoints, paths.list(slug, 'endpoints', filters)],
                ['Remediation targets', dashboard.data.totals.remediationTargets, paths.list(slug, 'remediationTargets', filters)],
                ['Findings', dashboard.data.totals.findings, paths.list(slug, 'findings', filters)],
                ['Open findings', dashboard.data.totals.openFindings, paths.list(slug, 'findings', { ...filters, status: 'open' })],
                ['Open KEV findings', dashboard.data.totals.openKevFindings, paths.list(slug, 'findings', { ...filters, status: 'open', isKev: 'true' })],
                ['Scopes', dashboard.data.totals.scopes, paths.list(slug, 'scopes')],
              ] as const
            ).map(([label, value, to]) => (
              <li key={label} className="figure">
                <Link to={to} className="figure__link">
                  <span className="figure__value">{formatCount(value)}</span>
                  <span className="figure__label">{label}</span>
                </Link>
              </li>
            ))}
          </ul>
          {dashboard.data.totals.findings > 0 ? <DeadlineCard slug={slug} filters={filters} /> : null}
          {dashboard.data.totals.findings + dashboard.data.totals.endpoints === 0 ? (
            <p className="state">This organization has no data yet.</p>
          ) : (
            <Suspense fallback={<Loading what="charts" />}>
              <DashboardChartGrid dashboard={dashboard.data} />
            </Suspense>
          )}
        </>
      )}
    </section>
  );
}

/** Of a replica: when it was last reconciled with its remote and last matched it; nothing for a local organization. */
function ReplicaMatch({ slug }: { slug: string }) {
  const overview = useQuery(syncOverviewQuery());
  const status = overview.data?.find((candidate) => candidate.org === slug);
  if (!status) return null;
  return (
    <section className="replica-match" aria-label="Replica of a remote tenant">
      <ReconcileStatus slug={slug} state={status.state} />
    </section>
  );
}

/** Are findings fixed in time: open overdue findings and the share remediated in time, linked to the remediation performance. */
function DeadlineCard({ slug, filters }: { slug: string; filters: Record<string, string> }) {
  const performance = useQuery(remediationPerformanceQuery(slug, filters));
  if (performance.isError) return <QueryError error={performance.error} onRetry={() => void performance.refetch()} />;
  const totals = performance.data?.totals;
  const search = new URLSearchParams(filters).toString();
  const to = `${paths.remediationPerformance(slug)}${search ? `?${search}` : ''}`;
  return (
    <section className="deadline-card" aria-labelledby="deadline-card-title">
      <h2 id="deadline-card-title">
        <Link to={to}>Remediation deadlines</Link>
      </h2>
      <ul className="figures" aria-label="Remediation deadlines">
        {(
          [
            ['Open and overdue', totals ? formatCount(totals.open_overdue) : '…'],
            ['Remediated in time', totals ? (totals.share_in_time === null ? '—' : formatShare(totals.share_in_time)) : '…'],
            ['Median time to remediate', totals ? formatDays(totals.median_days_to_remediate) : '…'],
          ] as const
        ).map(([label, value]) => (
          <li key={label} className="figure">
            <Link to={to} className="figure__link">
              <span className={`figure__value${label === 'Open and overdue' ? ' figure__value--danger' : ''}`}>{value}</span>
              <span className="figure__label">{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
