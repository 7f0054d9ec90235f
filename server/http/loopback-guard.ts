import os from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUnspecifiedAddress } from '../secrets/loopback-address.js';
import { sendError } from './http-error.js';

const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];

/** An address as a Host header names it: an IPv6 one in brackets. */
const hostName = (address: string) => (address.includes(':') ? `[${address}]` : address);

/**
 * The Host header values under which the server is reached where it listens: its address, or
 * on every interface, the loopback names and each interface's address as they are at the start.
 * Wherever it answers on loopback, also under `consoleHostName`, the data directory's name under
 * `.localhost` that browsers resolve to loopback themselves (secrets/console-sessions.ts).
 */
export function acceptedHosts(host: string, port: number, consoleHostName?: string): Set<string> {
  const loopback = loopbackNames.includes(host) || host === '::1';
  let names = loopback ? loopbackNames : [hostName(host)];
  if (isUnspecifiedAddress(host)) {
    const addresses = Object.values(os.networkInterfaces()).flatMap((entries) => entries ?? []);
    names = [...loopbackNames, ...addresses.map((entry) => hostName(entry.address))];
  }
  if (consoleHostName && (loopback || isUnspecifiedAddress(host))) names = [...names, consoleHostName.toLowerCase()];
  return new Set(names.map((name) => `${name}:${port}`));
}

/** The headers of every answer to a request that passed the guard. */
export const guardHeaders = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

/**
 * Refuses (421) a request whose Host header is not the address and port the server listens on,
 * before anything else about it is looked at: a page of another site that rebinds its DNS name
 * to 127.0.0.1 sends its own name, and reads nothing. Returns whether it refused.
 */
export function refuseMisdirected(req: IncomingMessage, res: ServerResponse, accepted: Set<string>): boolean {
  const host = req.headers.host?.toLowerCase();
  if (host !== undefined && accepted.has(host)) return false;
  sendError(res, 421, 'The Host header does not name this server; use the address it listens on');
  return true;
}
