import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataDirectoryFiles, writeFileAtomically } from '../store/engine/data-directory.js';
import { isUnspecifiedAddress } from '../secrets/loopback-address.js';
import { acceptedHosts } from './loopback-guard.js';

/** The default port of DESIGN section 4. */
export const defaultPort = 7300;

/** A listening server and how to stop it. */
export interface RunningServer {
  /** The base URL the server answers at, e.g. `http://127.0.0.1:7300`. */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const headerLimitBody = JSON.stringify({ error: 'Request headers or URL are too large' });
const malformedBody = JSON.stringify({ error: 'Malformed HTTP request' });

function listen(server: http.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** How long the server keeps an idle keep-alive connection open (see startServer). */
const keepAliveMs = 65_000;

/**
 * Serves the listener built by `createApp` (which is told the accepted Host headers) on `host`, on
 * `port` or, when that port is taken, on a free one; writes the address to `api.json` in the
 * data directory for local tools while it runs.
 */
export async function startServer(options: {
  host?: string;
  port?: number;
  dataDir?: string;
  /** The console's host name under `.localhost`, accepted beside the loopback names (loopback-guard.ts). */
  consoleHostName?: string;
  createApp: (acceptedHosts: () => Set<string>) => http.RequestListener;
}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  let accepted = new Set<string>();
  const server = http.createServer(
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 20_000 },
    options.createApp(() => accepted),
  );
  // Node closes a keep-alive connection after 5 s idle; a client whose thread is busy when its
  // own shorter timer is due (a local tool, a test computing between requests) then sends its
  // next request on a closed socket and gets ECONNRESET. A minute leaves that to idle clients:
  // on loopback an idle socket costs next to nothing, and close() drops idle ones at once.
  server.keepAliveTimeout = keepAliveMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = tooLarge ? headerLimitBody : malformedBody;
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  try {
    await listen(server, host, options.port ?? defaultPort);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await listen(server, host, 0);
  }
  const { port } = server.address() as AddressInfo;
  accepted = acceptedHosts(host, port, options.consoleHostName);
  // On every interface, this machine's tools and browser reach it on loopback.
  const urlHost = isUnspecifiedAddress(host) ? (host.includes(':') ? '[::1]' : '127.0.0.1') : host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;

  const addressFile = options.dataDir ? dataDirectoryFiles(options.dataDir).apiAddress : undefined;
  if (addressFile) {
    writeFileAtomically(addressFile, Buffer.from(`${JSON.stringify({ url, host, port, pid: process.pid }, null, 2)}\n`), 0o644);
  }
  return {
    url,
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        if (addressFile) fs.rmSync(addressFile, { force: true });
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
