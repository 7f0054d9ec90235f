import { describe, expect, it } from 'vitest';
import { RowsPerWrite } from './rows-per-write.js';

describe('RowsPerWrite', () => {
  it('grows while writes are quick, shrinks when one is slow, within its bounds', () => {
    const rows = new RowsPerWrite(100, 800, 30);
    expect(rows.size).toBe(100);
    for (const ms of [5, 5, 5, 5]) rows.took(ms);
    expect(rows.size).toBe(800);
    rows.took(20);
    expect(rows.size).toBe(800);
    rows.took(45);
    expect(rows.size).toBe(400);
    for (const ms of [90, 90, 90, 90]) rows.took(ms);
    expect(rows.size).toBe(100);
  });

  it('takes as many more rows at most as its writes may take longer than the default pace', () => {
    const most = (rows: RowsPerWrite) => {
      for (let write = 0; write < 20; write++) rows.took(0);
      return rows.size;
    };
    expect(most(RowsPerWrite.paced(100, 2_000, 20))).toBe(2_000);
    expect(most(RowsPerWrite.paced(100, 2_000, 250))).toBe(25_000);
    expect(most(RowsPerWrite.paced(100, 2_000, 0.01))).toBe(100);
  });
});
