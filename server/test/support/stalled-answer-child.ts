// `node --expose-gc --import tsx stalled-answer-child.ts`: pages read by the product's fetchPage
// (a 1.5 s timeout) from a remote that stalls, while a garbage collection runs at 0.3 s: one
// whose remote sends its headers and then nothing, the same interrupted at 0.5 s, and one whose
// remote sends nothing at all. Prints one line of JSON: how each ended and when. Run in a child
// by server/remote/remote-get.test.ts, for --expose-gc.
import http from 'node:http';
import { fetchPage } from '../../sync/remote-pages.js';
import { defaultSyncPolicy } from '../../sync/sync-policy.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect: () => void = gc;
const server = http.createServer((req, res) => {
  if (req.url?.startsWith('/silent')) return;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data":[');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;
const policy = { ...defaultSyncPolicy, requestTimeoutMs: 1_500, requestAttempts: 1 };

async function outcome(baseUrl: string, interruptAtMs?: number): Promise<{ ended: string; seconds: number }> {
  const controller = new AbortController();
  const started = performance.now();
  const page = fetchPage({ baseUrl, apiKey: 'key' }, '/v1/scopes?limit=1', policy, controller.signal);
  setTimeout(collect, 300);
  if (interruptAtMs !== undefined) setTimeout(() => controller.abort(new Error('paused')), interruptAtMs);
  const ended = await Promise.race([
    page.then(
      () => 'answered',
      (error: Error) => error.message,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still hanging'), 5_000).unref()),
  ]);
  return { ended, seconds: (performance.now() - started) / 1000 };
}

const stalledBody = await outcome(`http://127.0.0.1:${port}`);
const interrupted = await outcome(`http://127.0.0.1:${port}`, 500);
const silent = await outcome(`http://127.0.0.1:${port}/silent`);
console.log(JSON.stringify({ stalledBody, interrupted, silent }));
process.exit(0);
