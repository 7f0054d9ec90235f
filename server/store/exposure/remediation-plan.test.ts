import { describe, expect, it } from 'vitest';
import type { ExposureFigures } from './exposure-figures.js';
import { remediationPlan } from './remediation-plan.js';
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
    endpoints: [Int32Array.from([0, 1]), Int32Array.from([1]), Int32Array.from([2, 3])],
    withoutProduct: 1,
    total: 10,
  },
} as unknown as ExposureFigures;

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
  it('pauses at every step, so that a large plan gives requests a turn and stops when the data changes', async () => {
    const { counted, slices } = countingSlices();
    const plan = await remediationPlan(figures, slices);
    // Browser closes 3 on one endpoint; Agent then adds one endpoint for its 4, before Codec's 2 for two.
    expect(plan.steps.map((step) => [step.product_id, step.cumulative_closed, step.cumulative_endpoints])).toEqual([
      ['b', 3, 1],
      ['a', 7, 2],
      ['c', 9, 4],
    ]);
    // One pause per product while indexing the endpoints, one per step.
    expect(counted.pauses).toBe(6);
    await expect(remediationPlan(figures, countingSlices(5).slices)).rejects.toThrow('the data changed');
  });
});
