import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FetchingThread, RemotePages } from './fetching-thread.js';
import { defaultSyncPolicy } from './sync-policy.js';

/** Pages of the list, items each, and how late the remote answers each page. */
const pages = 40;
const limit = 10;
const answerMs = 20;

/**
 * A remote in a process of its own, so that it answers while this thread is busy: every list
 * page holds `limit` empty (invalid) items of a total of `pages` pages, the first at once and
 * the others `answerMs` late; `/control` answers when each page was asked for.
 */
const remoteScript = `
const http = require('node:http');
const asked = [];
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://remote');
  if (url.pathname === '/control') return res.end(JSON.stringify(asked));
  asked.push({ at: Date.now() });
  const limit = Number(url.searchParams.get('limit'));
  const offset = Number(url.searchParams.get('offset'));
  setTimeout(() => res.end(JSON.stringify({ data: Array.from({ length: limit }, () => ({})), total: ${pages * limit} })), offset === 0 ? 0 : ${answerMs});
}).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port); });
`;

let child: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  child = spawn(process.execPath, ['-e', remoteScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  baseUrl = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
});
afterAll(() => child.kill());

/** Holds this thread for `ms`, as a write of the staging does. */
function busy(ms: number): void {
  for (const until = performance.now() + ms; performance.now() < until; );
}

describe("the sync's fetching thread", () => {
  it('goes on requesting pages while the thread that syncs is busy, and hands them on in order', async () => {
    const remotePages = new RemotePages({ baseUrl, apiKey: 'key' }, { ...defaultSyncPolicy, pagesInFlightAtFirst: 8, pagesInFlightBound: 8 });
    try {
      const list = remotePages.list({ collection: 'scopes', before: `/v1/scopes?limit=${limit}&offset=`, after: '', from: 0, stride: limit, end: pages * limit });
      const offsets = [(await list.next()).offset];
      const busyFrom = Date.now();
      busy(400);
      const busyTo = Date.now();
      while (offsets.length < pages) {
        const page = await list.next();
        expect(page).toMatchObject({ total: pages * limit, length: limit, items: [] });
        expect(page.invalidIds).toEqual(Array(limit).fill(null));
        offsets.push(page.offset);
      }
      list.stop();
      expect(offsets).toEqual(Array.from({ length: pages }, (_, page) => page * limit));
      const asked = (await (await fetch(`${baseUrl}/control`)).json()) as { at: number }[];
      // Eight in flight at a time, refilled as each answer arrives, and pages held up to twice
      // that: the first page comes at once, the seven others in flight with it arrive while this
      // thread is busy, and about eight more are asked meanwhile (a thread that fetched for
      // itself would ask none).
      const askedWhileBusy = asked.filter((request) => request.at > busyFrom && request.at < busyTo);
      expect(askedWhileBusy.length).toBeGreaterThanOrEqual(6);
      expect(askedWhileBusy.length).toBeLessThanOrEqual(16);
    } finally {
      remotePages.close();
    }
  });

  it('is started by the first list of more than a page: a list of one page is fetched on the thread that syncs', async () => {
    const shared = vi.spyOn(FetchingThread, 'shared');
    const remotePages = new RemotePages({ baseUrl, apiKey: 'key' }, defaultSyncPolicy);
    try {
      const request = { collection: 'scopes' as const, before: `/v1/scopes?limit=${limit}&offset=`, after: '' };
      const one = remotePages.list({ ...request, from: limit, stride: limit, end: 2 * limit });
      expect(await one.next()).toMatchObject({ offset: limit, total: pages * limit, length: limit });
      one.stop();
      expect(shared).not.toHaveBeenCalled();
      const more = remotePages.list({ ...request, from: 0, stride: limit, end: 2 * limit });
      expect([(await more.next()).offset, (await more.next()).offset]).toEqual([0, limit]);
      more.stop();
      expect(shared).toHaveBeenCalledOnce();
    } finally {
      remotePages.close();
      shared.mockRestore();
    }
  });
});
