import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import { dashboardQuery } from '../api/console-queries';
import { Loading, QueryError } from '../components/query-state';
import { formatCount } from '../lib/format';
import { paths } from '../lib/paths';

const DashboardChartGrid = lazy(() => import('../components/charts/dashboard-chart-grid'));

/** The organization at a glance: totals linked to their lists, and the charts. */
export function DashboardView({ slug }: { slug: string }) {
  const dashboard = useQuery(dashboardQuery(slug));
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Dashboard</h1>
      </header>
      {dashboard.isPending ? (
        <Loading what="the dashboard" />
      ) : dashboard.isError ? (
        <QueryError error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : (
        <>
          <ul className="figures" aria-label="Totals">
            {(
              [
                ['Endpoints', dashboard.data.totals.endpoints, paths.list(slug, 'endpoints')],
                ['Remediation targets', dashboard.data.totals.remediationTargets, paths.list(slug, 'remediationTargets')],
                ['Findings', dashboard.data.totals.findings, paths.list(slug, 'findings')],
                ['Open findings', dashboard.data.totals.openFindings, paths.list(slug, 'findings', { status: 'open' })],
                ['Open KEV findings', dashboard.data.totals.openKevFindings, paths.list(slug, 'findings', { status: 'open', isKev: 'true' })],
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
