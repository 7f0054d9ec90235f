import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server standing in for the console's: it answers /app/file with random bytes. */
export interface ByteServer {
  url: string;
  /** The bytes /app/file answers with. */
  bytes: Buffer;
  /** The console-token headers of the requests received. */
  tokens: (string | undefined)[];
  close(): Promise<void>;
}

/** Starts a {@link ByteServer}; /app/missing answers 409 with an error body as the server does. */
export async function startByteServer(): Promise<ByteServer> {
  const bytes = crypto.randomBytes(64 * 1024 + 7);
  const tokens: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    tokens.push(req.headers['x-console-token'] as string | undefined);
    if (req.url === '/app/file') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(bytes);
    } else {
      res.writeHead(409, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'The organization has no enrollment secret' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes,
    tokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
