import { expect, it } from 'vitest';
import { progressPrinter } from './progress-printer.js';
import type { SyncProgress } from '../../contracts/console/sync.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 60, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

const steps: SyncProgress[] = [
  { org: 'r', mode: undefined, phase: 'checking', fetched: 0, total: 0 },
  { org: 'r', mode: 'full', phase: 'fetching', collection: 'findings', fetched: 100, total: 200 },
  { org: 'r', mode: 'full', phase: 'fetching', collection: 'findings', fetched: 200, total: 200 },
  { org: 'r', mode: 'full', phase: 'writing', fetched: 0, total: 0 },
];

it('redraws one line with a bar on a terminal', () => {
  const { written, stream } = fakeStream(true);
  const printer = progressPrinter(stream);
  for (const step of steps) printer.update(step);
  printer.done();
  expect(written.slice(0, -1).every((line) => line.startsWith('\r') && line.length === 60)).toBe(true);
  expect(written[1]).toContain('r: full findings [############............] 100/200');
  expect(written.at(-1)).toBe('\n');
});

it('prints plain lines, one per phase and finished collection, elsewhere', () => {
  const { written, stream } = fakeStream(false);
  const printer = progressPrinter(stream);
  for (const step of steps) printer.update(step);
  printer.done();
  expect(written).toEqual(['r: asking the remote\n', 'r: full findings: 200 of 200\n', 'r: writing the replica\n']);
});
