import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server standing in for the console's: it answers /app/file with random bytes, {@link reportPath} with a report's HTML. */
export interface ByteServer {
  url: string;
  /** The bytes /app/file answers with. */
  bytes: Buffer;
  /** The HTML {@link reportPath} answers with: a report asking for an image and a style sheet of the network. */
  reportHtml: Buffer;
  /** The console-token headers of the requests received. */
  tokens: (string | undefined)[];
  close(): Promise<void>;
}

/** The path of the one report the byte server has. */
export const reportPath = '/app/orgs/demo/reports/0b6c2f1e-5d0a-4c3b-9f7e-1a2b3c4d5e6f';

/** Starts a {@link ByteServer}; /app/missing answers 409 with an error body as the server does. */
export async function startByteServer(): Promise<ByteServer> {
  const bytes = crypto.randomBytes(64 * 1024 + 7);
  const reportHtml = Buffer.from(
    `<!doctype html><title>Report ${crypto.randomUUID()}</title><link rel="stylesheet" href="https://cdn.example/r.css"><img src="http://tracker.example/p.gif"><h1>Posture</h1>`,
  );
  const tokens: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    tokens.push(req.headers['x-console-token'] as string | undefined);
    if (req.url === '/app/file') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(bytes);
    } else if (req.url === reportPath) {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(reportHtml);
    } else {
      res.writeHead(409, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'The organization has no enrollment secret' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes,
    reportHtml,
    tokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
