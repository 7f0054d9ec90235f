import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import type { RemediationPlan } from '../../../contracts/console/software';
import { remediationPlanCsvPath, remediationPlanQuery } from '../api/software-queries';
import { CsvDownloadButton } from '../components/csv-export-button';
import { workPackagesQuery } from '../api/work-package-queries';
import type { ListFilters } from '../api/list-pages';
import { endpointContextControls, osFamilyControl, useEndpointContextFilters } from '../components/endpoint-context-controls';
import { FilterBar, type FilterControls } from '../components/filter-bar';
import { Loading, QueryFrame } from '../components/query-state';
import { FixBySummary } from '../components/fix-by-summary';
import { fixByControls } from '../components/fix-by-controls';
import { TableHead, figureColumns } from '../components/table-head';
import { formatCount, formatCounted, formatGoal, formatShare } from '../lib/format';
import { paths } from '../lib/paths';
import { productLabel } from '../lib/software-names';
import { WorkPackageBar, WorkPackageCells, useTicketStatusFilter } from './plan-work-packages';

/** The plan's filters: the endpoints' context and OS family, and the BOD 26-04 outcome, decision and fix-by date of the open findings it closes. */
const planControls = {
  ...endpointContextControls,
  osFamily: osFamilyControl,
  ...fixByControls(),
} as const satisfies FilterControls;

const RemediationCurveChart = lazy(() => import('../components/charts/remediation-curve-chart'));

/**
 * The remediation plan: the products to update in the order that closes the most open critical
 * or KEV findings for the fewest endpoints touched; what reaching 50, 80 and 95 % takes, in words
 * first; the cumulative curve; and every step in a table. Filtered by tag, criticality or OS
 * family (in the URL), the plan for the findings of the endpoints they keep; by BOD 26-04
 * outcome, decision or fix-by date, for the open findings they keep.
 */
export function RemediationPlanView({ slug }: { slug: string }) {
  const { filters, setFilter } = useEndpointContextFilters(planControls);
  const plan = useQuery(remediationPlanQuery(slug, filters));
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Remediation plan</h1>
        <CsvDownloadButton path={remediationPlanCsvPath(slug, filters)} suggestedName={`${slug}-remediation-plan.csv`} total={plan.data?.steps.length} />
      </header>
      <p className="hint">
        The products to update, in the order that closes the most open critical or KEV findings for the fewest endpoints touched, each finding
        weighed by its endpoint&rsquo;s criticality. Updating a product closes the open findings of its remediation targets.
      </p>
      <FilterBar slug={slug} controls={planControls} values={filters} onChange={setFilter} />
      <FixBySummary slug={slug} />
      <QueryFrame
        query={plan}
        what="the remediation plan"
        empty={(data) => data.open_critical_or_kev === 0 && 'There are no open critical or KEV findings: there is nothing to plan.'}
      >
        {(data) => <PlanContent slug={slug} plan={data} filters={filters} />}
      </QueryFrame>
    </section>
  );
}

function PlanContent({ slug, plan, filters }: { slug: string; plan: RemediationPlan; filters: ListFilters }) {
  return (
    <>
      <ol className="milestones" aria-label="Goals">
        {plan.milestones.map((m) => (
          <li key={m.goal} className={`milestone${m.reached ? '' : ' milestone--unreached'}`}>
            <span className="milestone__goal" aria-hidden="true">
              {formatGoal(m.goal)}
            </span>
            <p className="milestone__sentence">{m.sentence}</p>
          </li>
        ))}
      </ol>
      <WithoutProduct plan={plan} />
      <Suspense fallback={<Loading what="the chart" />}>
        <RemediationCurveChart plan={plan} />
      </Suspense>
      <StepsTable slug={slug} plan={plan} filters={filters} />
    </>
  );
}

/** How many of the findings no update of the plan closes, and why. */
function WithoutProduct({ plan }: { plan: RemediationPlan }) {
  if (plan.without_product === 0) {
    return <p>Every one of the {formatCounted(plan.open_critical_or_kev, 'open critical or KEV finding')} belongs to a product of this plan.</p>;
  }
  return (
    <p className="notice">
      {formatCount(plan.without_product)} of the {formatCounted(plan.open_critical_or_kev, 'open critical or KEV finding')}{' '}
      {plan.without_product === 1 ? 'has' : 'have'} no product to update (their remediation target is not held here, or names no product): no step of this plan
      closes them.
    </p>
  );
}

/** Every step of the plan, in order, with the goal each reached goal's step meets, and its work package; filtered by ticket status when asked. */
function StepsTable({ slug, plan, filters }: { slug: string; plan: RemediationPlan; filters: ListFilters }) {
  const goalAt = new Map(plan.milestones.filter((m) => m.reached).map((m) => [m.products, m.goal]));
  const { status } = useTicketStatusFilter();
  const packages = useQuery(workPackagesQuery(slug, filters));
  const kept = useQuery({ ...workPackagesQuery(slug, { ...filters, status: status ?? '' }), enabled: status !== undefined });
  const workOf = new Map(packages.data?.data.map((work) => [work.product_id, work]));
  const keptIds = status === undefined ? undefined : new Set(kept.data?.data.map((work) => work.product_id));
  return (
    <section className="plan-steps" aria-labelledby="steps-title">
      <h2 id="steps-title">Steps</h2>
      <WorkPackageBar slug={slug} filters={filters} />
      <div className="plan-steps__frame">
        <table className="plain-table plan-steps__table" aria-labelledby="steps-title">
          <TableHead
            columns={['Rank', 'Product', ...figureColumns(['Closes', 'Endpoints', 'Cumulative closed', 'Cumulative endpoints', 'Cumulative %', 'EPSS sum']), 'Ticket', 'Status', 'Owner and note', 'Export']}
          />
          <tbody>
            {plan.steps.map((step, index) => {
              if (keptIds && !keptIds.has(step.product_id)) return null;
              const rank = index + 1;
              const goal = goalAt.get(rank);
              return (
                <tr key={step.product_id} className={goal === undefined ? undefined : 'plan-steps__goal'}>
                  <td>{rank}</td>
                  <td>
                    <Link to={paths.softwareProduct(slug, step.product_id)}>{productLabel(step)}</Link>
                  </td>
                  <td className="num">{formatCount(step.closes)}</td>
                  <td className="num">{formatCount(step.endpoints)}</td>
                  <td className="num">{formatCount(step.cumulative_closed)}</td>
                  <td className="num">{formatCount(step.cumulative_endpoints)}</td>
                  <td className="num">
                    {goal === undefined ? null : <span className="badge badge--goal">{formatGoal(goal)} goal</span>} {formatShare(step.cumulative_share)}
                  </td>
                  {/* The expected exploitations its findings carry (FIRST's EPSS); a dash without an EPSS file, never a zero. */}
                  <td className="num">{step.epss_sum === null ? '—' : step.epss_sum.toFixed(2)}</td>
                  <WorkPackageCells slug={slug} work={workOf.get(step.product_id)} label={productLabel(step)} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
