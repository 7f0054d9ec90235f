import {
  type RemediationPlan,
  type RemediationPlanMilestone,
  type RemediationPlanSortKey,
  type RemediationPlanStep,
  remediationPlanGoals,
} from '../../../contracts/console/software.js';
import type { ListSort } from '../../../contracts/list-queries.js';
import { dateOfDay } from '../ssvc/fix-by-figures.js';
import type { ExposureFigures } from './exposure-figures.js';
import { counted, percentRoundedDown } from '../../../contracts/figure-text.js';
import { compareSqlValues } from '../derived/sql-value-order.js';
import type { TimeSlices } from '../derived/time-slices.js';


/** What a plan step sums of the findings it closes, per product. */
export interface PlanStepSums {
  /** The EPSS sums (store/intel/exploit-figures.ts); undefined without an EPSS file. */
  epssSums: Float64Array | undefined;
  /** The earliest fix-by day (days since the epoch); NaN when none has one. */
  fixByDays: Float64Array;
}

/** The plan's own order: the default sort of its steps. */
export const planOrder: ListSort<RemediationPlanSortKey> = { key: 'plan', descending: false };


/**
 * The plan with its steps listed in `sort`'s order: by `rank` (the plan's order), or by
 * `fix_by` (steps without one last either way, ties in the plan's order). Each step keeps
 * its rank and its cumulative figures, and the milestones stay the plan's: sorting lists the
 * same plan, it does not make another.
 */
export function sortedPlan(plan: RemediationPlan, sort: ListSort<RemediationPlanSortKey>): RemediationPlan {
  if (sort.key === 'plan' && !sort.descending) return plan;
  const direction = sort.descending ? -1 : 1;
  const byRank = (a: RemediationPlanStep, b: RemediationPlanStep) => a.rank - b.rank;
  const order =
    sort.key === 'plan'
      ? (a: RemediationPlanStep, b: RemediationPlanStep) => direction * byRank(a, b)
      : (a: RemediationPlanStep, b: RemediationPlanStep) => {
          // ISO dates compare as text; null (no date) after every date in both directions.
          if (a.fix_by !== b.fix_by) return a.fix_by === null ? 1 : b.fix_by === null ? -1 : direction * (a.fix_by < b.fix_by ? -1 : 1);
          return byRank(a, b);
        };
  return { ...plan, steps: plan.steps.slice().sort(order) };
}

/**
 * The remediation plan: the products in the order that closes the most open critical or KEV
 * findings for the fewest endpoints touched, greedily, each finding weighed by its endpoint's
 * criticality (risk-score.ts). Each step takes the product with the most weight closed per
 * endpoint it adds to the ones touched already (an endpoint updated
 * for one product costs nothing more for the next), ties to the one closing more, then by
 * vendor and product. Products sharing endpoints thus follow each other, which a plain
 * findings-per-endpoint order would miss.
 *
 * Each step is O(products) and each endpoint is counted off once per product it is in, so the
 * plan costs O(products² + pairs) however the endpoints overlap: tens of milliseconds on
 * `large`, so it pauses between steps (`slices`) like every computation over the replica.
 */
export async function remediationPlan(figures: ExposureFigures, slices: TimeSlices, sums: PlanStepSums): Promise<RemediationPlan> {
  const { epssSums, fixByDays } = sums;
  const { products } = figures;
  const { closes, weights, endpoints, withoutProduct, total } = figures.planInput;
  // The products each endpoint key is in, and how many not yet touched endpoints each product has.
  const productsOfEndpoint = new Map<number, number[]>();
  const untouched = endpoints.map((keys) => keys.length);
  for (const [product, keys] of endpoints.entries()) {
    await slices.pause();
    for (const key of keys) {
      const list = productsOfEndpoint.get(key);
      if (list) list.push(product);
      else productsOfEndpoint.set(key, [product]);
    }
  }
  const touched = new Set<number>();
  const remaining = new Set(products.map((_, index) => index).filter((index) => closes[index]! > 0));
  // a before b when a closes more weight per endpoint added: weights[a] / untouched[a] > weights[b] / untouched[b], cross-multiplied (untouched may be 0).
  const before = (a: number, b: number) => {
    const difference = weights[a]! * untouched[b]! - weights[b]! * untouched[a]!;
    if (difference !== 0) return difference > 0;
    if (closes[a] !== closes[b]) return closes[a]! > closes[b]!;
    return (compareSqlValues(products[a]!.vendor, products[b]!.vendor) || compareSqlValues(products[a]!.product, products[b]!.product)) < 0;
  };

  const steps: RemediationPlan['steps'] = [];
  let closed = 0;
  while (remaining.size > 0) {
    await slices.pause();
    let best = -1;
    for (const candidate of remaining) if (best < 0 || before(candidate, best)) best = candidate;
    remaining.delete(best);
    for (const key of endpoints[best]!) {
      if (touched.has(key)) continue;
      touched.add(key);
      for (const product of productsOfEndpoint.get(key)!) untouched[product]!--;
    }
    closed += closes[best]!;
    const { id, vendor, product } = products[best]!;
    steps.push({
      rank: steps.length + 1,
      product_id: id,
      vendor,
      product,
      closes: closes[best]!,
      endpoints: endpoints[best]!.length,
      cumulative_closed: closed,
      cumulative_endpoints: touched.size,
      cumulative_share: closed / total,
      // Of the findings it closes (store/intel/exploit-figures.ts); null without an EPSS file.
      epss_sum: epssSums ? epssSums[best]! : null,
      fix_by: dateOfDay(fixByDays[best]!),
    });
  }
  return { open_critical_or_kev: total, without_product: withoutProduct, steps, milestones: remediationPlanGoals.map((goal) => milestone(goal, steps, total)) };
}

/** What reaching `goal` (a share of `total`) takes: the shortest prefix of the steps that closes it. */
function milestone(goal: number, steps: RemediationPlan['steps'], total: number): RemediationPlanMilestone {
  const percent = Math.round(goal * 100);
  if (total === 0) {
    return { goal, reached: true, products: 0, endpoints: 0, share: 1, sentence: 'There are no open critical or KEV findings to close.' };
  }
  // Whole numbers on both sides: closed / total >= percent / 100.
  const index = steps.findIndex((step) => step.cumulative_closed * 100 >= percent * total);
  const reached = index >= 0;
  const last = reached ? steps[index] : steps.at(-1);
  const products = reached ? index + 1 : steps.length;
  const endpoints = last?.cumulative_endpoints ?? 0;
  const share = last?.cumulative_share ?? 0;
  // Rounded down, so that a sentence never claims more than the plan closes; one decimal, as the console writes every share.
  const closes = `${percentRoundedDown(share).toFixed(1)} % of open critical and KEV findings`;
  const productsOn = `${products === 1 ? 'this' : 'these'} ${counted(products, 'product')} on ${counted(endpoints, 'endpoint')}`;
  const sentence = reached
    ? `Update ${productsOn} to close ${closes}.`
    : `Updating all ${counted(products, 'product')} on ${counted(endpoints, 'endpoint')} closes ${closes}, short of ${percent} %: the rest have no product to update.`;
  return { goal, reached, products, endpoints, share, sentence };
}
