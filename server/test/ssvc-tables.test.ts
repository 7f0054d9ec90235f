/**
 * The decision tables the product carries (contracts/ssvc-tables.ts) are CERT/CC's as published:
 * every row of the shared CSVs, in order, with the version their JSON states (issue 37).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bod2604Table, coordinatorTable, ssvcNotice } from '../../contracts/ssvc-tables.js';
import { sharedSsvcDir, sharedTableCsv } from './support/ssvc-files.js';

const published = [
  { table: bod2604Table, csv: 'cisa_bod_26_04_1_0_0.csv', json: 'cisa_bod_26_04_1_0_0.json' },
  { table: coordinatorTable, csv: 'cisa_coordinator_2_0_3.csv', json: 'cisa_coordinator_2_0_3.json' },
];

describe('the SSVC tables carried as data', () => {
  it.each(published)('$csv: every row, in order, and the version and key of its JSON', ({ table, csv, json }) => {
    const [, ...rows] = sharedTableCsv(csv);
    expect(table.rows.map((row) => [...row])).toEqual(rows.map((cells) => cells.slice(1)));
    const document = JSON.parse(fs.readFileSync(path.join(sharedSsvcDir, json), 'utf8'));
    expect(`${document.namespace}:${document.key}`).toBe(table.key);
    expect(document.version).toBe(table.version);
    expect(document.name).toBe(table.name);
  });

  it("carries the SEI's notice", () => {
    expect(fs.readFileSync(path.join(sharedSsvcDir, 'LICENSE'), 'utf8')).toContain('Copyright 2026 Carnegie Mellon University');
    expect(fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'contracts', 'ssvc-tables.ts'), 'utf8')).toContain('Copyright 2026 Carnegie Mellon University');
    expect(ssvcNotice).toContain('DM24-0278');
  });
});
