/**
 * The child process of the crash-safety test: runs a fixed sequence of writes of every kind on
 * a data directory and prints, after each, the digest of what the files on disk hold. Its
 * randomness and clock are seeded, so two runs write the same. With a kill point it starts a
 * thread that sends SIGKILL to this process after a delay, once write number `killAt` begins;
 * with `recover`, it only opens and closes the store (the recovery of an earlier crash), killed
 * after the delay.
 *
 * Usage: crash-writer.ts <dataDir> [killAt killDelayMicroseconds | recover killDelayMicroseconds [on-demand]]
 */
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { Store } from '../../store/store.js';
import { sequence } from './crash-writer-sequence.js';
import { crashWrites } from './crash-writes.js';
import { liveDigest, shownOnly } from './store-digest.js';

const [dataDir = '', killAtText, delayText, openText] = process.argv.slice(2);
if (!dataDir) throw new Error('Usage: crash-writer.ts <dataDir> [killAt killDelayMicroseconds | recover killDelayMicroseconds [on-demand]]');
const killAt = killAtText === undefined ? -1 : Number(killAtText);

let state = 7;
const nextByte = () => {
  state = (state * 1103515245 + 12345) >>> 0;
  return state >>> 24;
};
crypto.randomBytes = ((size: number) => Buffer.from(Array.from({ length: size }, nextByte))) as typeof crypto.randomBytes;
crypto.randomUUID = (() => {
  const b = crypto.randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}) as typeof crypto.randomUUID;
const RealDate = Date;
let tick = 0;
globalThis.Date = class extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(1_790_000_000_000 + tick++ * 1000);
    else super(...(args as [number]));
  }
  static override now() {
    return 1_790_000_000_000 + tick++ * 1000;
  }
} as DateConstructor;


const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Kills this process `delayMicroseconds` from now, from a thread of its own. The delay counts from
 * this call, not from when the thread has started: a thread starts in tens of milliseconds on a
 * loaded machine, longer than a recovery takes, and a CI run once saw every recovery end before
 * its kill.
 */
function startKiller(delayMicroseconds: number): void {
  new Worker(
    `const { workerData } = require('node:worker_threads');
     const wait = workerData.deadline - (performance.timeOrigin + performance.now());
     if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
     process.kill(workerData.pid, 'SIGKILL');`,
    { eval: true, workerData: { deadline: performance.timeOrigin + performance.now() + delayMicroseconds / 1000, pid: process.pid } },
  );
}

if (killAtText === 'recover') {
  // A second crash: the recovery of the first (the open, which removes or replays what it left, and the close's checkpoint) killed.
  const started = performance.now();
  startKiller(Number(delayText));
  // `on-demand`: as a command line opens it, the snapshot's pages (and their last deltas) read as SQLite asks for them.
  const store = await Store.open({ dataDir, command: 'crash-writer', pagesOnDemand: openText === 'on-demand' });
  store.close();
  say(`recovered ${Math.round((performance.now() - started) * 1000)}`);
} else {
  await writeAll();
}

/** The sequence of writes, from a new data directory. */
async function writeAll(): Promise<void> {
  const store = await Store.open({ dataDir, command: 'crash-writer' });
  // Every run takes the digests, so that every run reads the clock as often.
  const digest = async () => liveDigest(store, shownOnly);
  let started = 0;
  // A full sync's pages are logged: what follows is its swap (the micros say when, for the test to kill there).
  const write = await crashWrites(store, async (index) => {
    say(`staged ${index} ${await digest()} ${Math.round((performance.now() - started) * 1000)}`);
  });
  say(`done -1 ${await digest()} 0`);
  for (const [index, kind] of sequence.entries()) {
    if (index === killAt) {
      say(`begin ${index} ${kind}`);
      startKiller(Number(delayText));
    }
    started = performance.now();
    await write(kind, index);
    const took = Math.round((performance.now() - started) * 1000);
    say(`done ${index} ${await digest()} ${took}`);
    // The kill comes while this write runs, or here: the process never goes past the write it was meant to die in.
    if (index === killAt) await new Promise(() => setInterval(() => undefined, 1000));
  }
  store.close();
  say('closed');
}
