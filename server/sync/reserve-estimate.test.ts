import { describe, expect, it } from 'vitest';
import { reserveEstimate, reserveSampleItems } from './reserve-estimate.js';

describe('reserveEstimate', () => {
  it('scales what the staged items added to the items still to come, with a margin', () => {
    // 1,000 findings added 700 kB: a million more need about 700 MB.
    const bytes = reserveEstimate(700_000, 1_000, 1_001_000);
    expect(bytes).toBeGreaterThanOrEqual(700_000_000);
    expect(bytes).toBeLessThan(900_000_000);
  });

  it('counts the free pages the rest will fill first', () => {
    expect(reserveEstimate(700_000, 1_000, 1_001_000, 500_000_000)).toBe(reserveEstimate(700_000, 1_000, 1_001_000) - 500_000_000);
    expect(reserveEstimate(700_000, 1_000, 1_001_000, 2_000_000_000)).toBe(0);
  });

  it('says nothing before enough items were staged, nor when all are there or nothing grew', () => {
    expect(reserveEstimate(70_000, reserveSampleItems - 1, 1_000_000)).toBe(0);
    expect(reserveEstimate(700_000, 2_000, 2_000)).toBe(0);
    expect(reserveEstimate(0, 2_000, 1_000_000)).toBe(0);
  });
});
