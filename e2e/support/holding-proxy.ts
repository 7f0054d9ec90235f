import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running {@link startHoldingProxy}. */
export interface HoldingProxy {
  url: string;
  /** Requests held so far (their answers wait for {@link release}). */
  held(): number;
  /** Lets every held request and every later one through. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A reverse proxy to `target` that holds back the requests `hold` picks until the test
 * releases them: a sync through it stops at a known point, so that the test sees its progress
 * without racing it.
 */
export async function startHoldingProxy(target: string, hold: (url: URL) => boolean): Promise<HoldingProxy> {
  let releasing = false;
  const waiting: (() => void)[] = [];
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = http.createServer((req, res) => {
    if (!releasing && hold(new URL(req.url ?? '/', 'http://proxy'))) waiting.push(() => forward(req, res));
    else forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    release() {
      releasing = true;
      for (const go of waiting.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
