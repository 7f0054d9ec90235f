import { once } from 'node:events';
import { threadId, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { answerSealingRequests, sealingChannel } from './sealer-across-threads.js';
import type { Sealer } from './sealer.js';

/**
 * Runs `use(sealer)` in a worker thread on the sealer of this one, `choose`'s (the worker loads
 * this folder's TypeScript with tsx); resolves to what it returns, or its error's message.
 */
async function inWorker(choose: () => Sealer, use: string): Promise<unknown> {
  const { answering, asking } = sealingChannel();
  const stop = answerSealingRequests(answering, choose);
  const tsx = import.meta.resolve('tsx/esm/api');
  const module = new URL('./sealer-across-threads.ts', import.meta.url).href;
  const script = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(${JSON.stringify(tsx)})
      .then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); })
      .then(({ sealerOfOtherThread }) => {
        try {
          const sealer = sealerOfOtherThread(workerData);
          parentPort.postMessage({ returned: (${use})(sealer) });
        } catch (error) {
          parentPort.postMessage({ thrown: error.message });
        }
      });`;
  const worker = new Worker(script, { eval: true, workerData: asking, transferList: [asking.port] });
  try {
    const [answer] = (await once(worker, 'message')) as [{ returned?: unknown; thrown?: string }];
    return answer.thrown ?? answer.returned;
  } finally {
    stop();
    await worker.terminate();
  }
}

/** Seals by reversing the bytes behind a tag, in this thread only; refuses what it did not seal. */
const reversingSealer = (threads: number[]): Sealer => ({
  secretStorage: { protection: 'key-file', keychainAvailable: false, description: 'Reversed.' },
  seal: (plain) => (threads.push(threadId), Buffer.concat([Buffer.from([0x7e]), Buffer.from(plain).reverse()])),
  unseal: (sealed) => {
    threads.push(threadId);
    if (sealed[0] !== 0x7e) throw new Error('This secret was not sealed here');
    return Buffer.from(sealed.subarray(1)).reverse();
  },
});

describe('a sealer across threads', () => {
  it("seals and unseals a worker's bytes, any bytes, with the sealer of this thread", async () => {
    const threads: number[] = [];
    const answer = await inWorker(
      () => reversingSealer(threads),
      `(sealer) => {
        const plain = Buffer.from(Array.from({ length: 70000 }, (_, i) => i % 256));
        const sealed = sealer.seal(plain);
        return { secretStorage: sealer.secretStorage, sealed: [...sealed.subarray(0, 4)], same: sealer.unseal(sealed).equals(plain) };
      }`,
    );
    expect(answer).toEqual({ secretStorage: reversingSealer([]).secretStorage, sealed: [0x7e, 0x6f, 0x6e, 0x6d], same: true });
    expect(threads).toEqual([threadId, threadId]);
  });

  it("raises in the worker the sealer's error, with its message", async () => {
    const refused = await inWorker(() => reversingSealer([]), "(sealer) => sealer.unseal(Buffer.from('plain text'))");
    expect(refused).toBe('This secret was not sealed here');
  });

  it('raises in the worker why no sealer could be chosen', async () => {
    const refused = await inWorker(() => {
      throw new Error('No keychain, and no answer from the user');
    }, '() => undefined');
    expect(refused).toBe('No keychain, and no answer from the user');
  });
});
