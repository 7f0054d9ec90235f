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
import type { TableSort } from '../components/virtual-table';
import { useUrlSearch } from '../lib/use-url-search';
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
  const { search } = useUrlSearch();
  // The order of the steps is the plan's and its CSV's, not the work packages' (which keep the plan's order).
  const sortText = search.get('sort') || undefined;
  const listed = sortText === undefined ? filters : { ...filters, sort: sortText };
  const plan = useQuery(remediationPlanQuery(slug, listed));
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Remediation plan</h1>
        <CsvDownloadButton path={remediationPlanCsvPath(slug, listed)} suggestedName={`${slug}-remediation-plan.csv`} total={plan.data?.steps.length} />
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
        {(data) => <PlanContent slug={slug} plan={data} filters={filters} sort={stepSort(sortText)} onSort={(key) => setFilter('sort', nextStepSort(stepSort(sortText), key))} />}
      </QueryFrame>
    </section>
  );
}

/** The order of the URL's `sort` (`key` or `-key`); absent, the plan's. */
function stepSort(sort: string | undefined): TableSort {
  const text = sort ?? 'plan';
  return { key: text.replace(/^-/, ''), descending: text.startsWith('-') };
}

/** The `sort` after a click on a header: the other way round if it is the current one, else ascending (the earliest date first); the plan's order leaves the URL without it. */
function nextStepSort(current: TableSort, key: string): string {
  const sort = `${current.key === key && !current.descending ? '-' : ''}${key}`;
  return sort === 'plan' ? '' : sort;
}

interface StepsOrder {
  sort: TableSort;
  onSort: (key: string) => void;
}

function PlanContent({ slug, plan, filters, sort, onSort }: { slug: string; plan: RemediationPlan; filters: ListFilters } & StepsOrder) {
  // The curve is the plan's, in its order whatever the table's.
  const inPlanOrder = sort.key === 'plan' && !sort.descending ? plan : { ...plan, steps: plan.steps.toSorted((a, b) => a.rank - b.rank) };
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
        <RemediationCurveChart plan={inPlanOrder} />
      </Suspense>
      <StepsTable slug={slug} plan={plan} filters={filters} sort={sort} onSort={onSort} />
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

/** The cumulative columns: what the plan has closed and touched once a step is done, in the plan's order. */
const cumulativeHeaders = ['Cumulative closed', 'Cumulative endpoints', 'Cumulative %'];

/**
 * Every step of the plan, in the plan's order or by its earliest fix-by date (the header's
 * sort, in the URL), with the goal each reached goal's step meets, and its work package;
 * filtered by ticket status when asked. Listed otherwise, a step keeps its rank and the
 * cumulative figures of the plan's order, and their headers say so.
 */
function StepsTable({ slug, plan, filters, sort, onSort }: { slug: string; plan: RemediationPlan; filters: ListFilters } & StepsOrder) {
  const goalAt = new Map(plan.milestones.filter((m) => m.reached).map((m) => [m.products, m.goal]));
  const { status } = useTicketStatusFilter();
  const packages = useQuery(workPackagesQuery(slug, filters));
  const kept = useQuery({ ...workPackagesQuery(slug, { ...filters, status: status ?? '' }), enabled: status !== undefined });
  const workOf = new Map(packages.data?.data.map((work) => [work.product_id, work]));
  const keptIds = status === undefined ? undefined : new Set(kept.data?.data.map((work) => work.product_id));
  const inPlanOrder = sort.key === 'plan' && !sort.descending;
  return (
    <section className="plan-steps" aria-labelledby="steps-title">
      <h2 id="steps-title">Steps</h2>
      <WorkPackageBar slug={slug} filters={filters} />
      <div className="plan-steps__frame">
        <table className="plain-table plan-steps__table" aria-labelledby="steps-title">
          <TableHead
            columns={[
              { header: 'Rank', sortKey: 'plan' },
              'Product',
              ...figureColumns(['Closes', 'Endpoints', ...cumulativeHeaders.map((header) => (inPlanOrder ? header : `${header} in plan order`)), 'EPSS sum']),
              { header: 'Fix by', sortKey: 'fix_by' },
              'Ticket',
              'Status',
              'Owner and note',
              'Export',
            ]}
            sort={sort}
            onSort={onSort}
          />
          <tbody>
            {plan.steps.map((step) => {
              if (keptIds && !keptIds.has(step.product_id)) return null;
              const { rank } = step;
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
                  {/* The earliest fix-by date of the findings it closes; a dash when they all wait for an upgrade. */}
                  <td>{step.fix_by ?? '—'}</td>
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
