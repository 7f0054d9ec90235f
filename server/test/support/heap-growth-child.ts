// `node --import tsx heap-growth-child.ts small|defaults`: starts a thread, then allocates as a
// sync's writes do (many objects that live a while, most of them dropped soon), with the command
// line's heap sizing (command-heap.ts) or V8's defaults, and prints the largest young and old
// generations seen.
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { keepHeapSmall } from '../../cli/command-heap.js';

if (process.argv[2] === 'small') keepHeapSmall();
// A thread started afterwards, as a sync's fetching thread is: its start sets V8's flags back.
await new Promise((resolve) => new Worker('setTimeout(() => {}, 10)', { eval: true }).once('online', resolve).once('exit', resolve));
const mib = (bytes: number) => bytes / 2 ** 20;
let [youngest, oldest] = [0, 0];
let kept: object[] = [];
for (let round = 0; round < 200; round++) {
  for (let i = 0; i < 20_000; i++) kept.push({ id: `item-${round}-${i}`, values: [i, round], nested: { i } });
  if (kept.length > 200_000) kept = kept.slice(100_000);
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space') youngest = Math.max(youngest, mib(space.space_size));
    if (space.space_name === 'old_space') oldest = Math.max(oldest, mib(space.space_size));
  }
}
console.log(JSON.stringify({ youngMiB: youngest, oldMiB: oldest }));
