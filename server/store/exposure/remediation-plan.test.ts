import { describe, expect, it } from 'vitest';
import type { ExposureFigures } from './exposure-figures.js';
import { type PlanStepSums, remediationPlan, sortedPlan } from './remediation-plan.js';
import type { TimeSlices } from '../derived/time-slices.js';

/** Figures of three products over four endpoints: only what the plan reads of them. */
const figures = {
  products: [
    { id: 'a', vendor: 'Acme', product: 'Agent' },
    { id: 'b', vendor: 'Acme', product: 'Browser' },
    { id: 'c', vendor: 'Zeta', product: 'Codec' },
  ],
  planInput: {
    closes: Float64Array.from([4, 3, 2]),
    weights: Float64Array.from([4, 3, 2]),
    endpoints: [Int32Array.from([0, 1]), Int32Array.from([1]), Int32Array.from([2, 3])],
    withoutProduct: 1,
    total: 10,
  },
} as unknown as ExposureFigures;

/** Fix-by days per product (days since the epoch; NaN: none): Agent 2026-12-01, Browser none, Codec 2026-11-20. */
const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const sums: PlanStepSums = { epssSums: undefined, fixByDays: Float64Array.from([day('2026-12-01'), Number.NaN, day('2026-11-20')]) };

/** Slices that count their pauses, or throw at one as a checkpoint does when the data changed. */
function countingSlices(throwAt = Infinity) {
  const counted = { pauses: 0 };
  const slices = {
    pause: async () => {
      if (++counted.pauses === throwAt) throw new Error('the data changed');
    },
  } as unknown as TimeSlices;
  return { counted, slices };
}

describe('remediationPlan', () => {
  it('orders by the findings closed weighed by their endpoints\' criticality, and counts them unweighed', async () => {
    // Codec's two findings are on critical endpoints (4 each): 8 for its two endpoints beats Browser's 3 for one.
    const weighed = { ...figures, planInput: { ...figures.planInput, weights: Float64Array.from([4, 3, 8]) } } as ExposureFigures;
    const plan = await remediationPlan(weighed, countingSlices().slices, sums);
    expect(plan.steps.map((step) => [step.product_id, step.cumulative_closed, step.cumulative_endpoints])).toEqual([
      ['c', 2, 2],
      ['b', 5, 3],
      ['a', 9, 4],
    ]);
  });

  it('pauses at every step, so that a large plan gives requests a turn and stops when the data changes', async () => {
    const { counted, slices } = countingSlices();
    const plan = await remediationPlan(figures, slices, sums);
    // Browser closes 3 on one endpoint; Agent then adds one endpoint for its 4, before Codec's 2 for two.
    expect(plan.steps.map((step) => [step.product_id, step.cumulative_closed, step.cumulative_endpoints])).toEqual([
      ['b', 3, 1],
      ['a', 7, 2],
      ['c', 9, 4],
    ]);
    // One pause per product while indexing the endpoints, one per step.
    expect(counted.pauses).toBe(6);
    await expect(remediationPlan(figures, countingSlices(5).slices, sums)).rejects.toThrow('the data changed');
  });

  it('lists the steps by fix-by date, each with its rank and cumulative figures of the plan, the milestones the plan\'s', async () => {
    const plan = await remediationPlan(figures, countingSlices().slices, sums);
    expect(plan.steps.map((step) => [step.rank, step.product_id, step.fix_by])).toEqual([
      [1, 'b', null],
      [2, 'a', '2026-12-01'],
      [3, 'c', '2026-11-20'],
    ]);
    const byFixBy = sortedPlan(plan, { key: 'fix_by', descending: false });
    expect(byFixBy.steps.map((step) => [step.rank, step.product_id, step.cumulative_closed])).toEqual([
      [3, 'c', 9],
      [2, 'a', 7],
      [1, 'b', 3],
    ]);
    // Latest first, and still without a date last.
    expect(sortedPlan(plan, { key: 'fix_by', descending: true }).steps.map((step) => step.rank)).toEqual([2, 3, 1]);
    expect(byFixBy.milestones).toEqual(plan.milestones);
    expect(sortedPlan(plan, { key: 'plan', descending: false })).toBe(plan);
  });
});
