import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuMilliseconds, root, stop } from './support.js';

/** A request of the benchmark's mix. */
export interface BenchRequest {
  path: string;
  kind: 'list' | 'get';
}

/** Builds the benchmark's mix: filtered list pages at offsets up to 10,000, and single gets. */
export async function buildMix(url: string, key: string, random: () => number): Promise<{ lists: BenchRequest[]; gets: BenchRequest[] }> {
  const headers = { Authorization: `Bearer ${key}` };
  const json = async (path: string) => (await fetch(url + path, { headers })).json() as Promise<{ total: number; data: { id: string }[] }>;
  const someEndpoint = (await json('/v1/endpoints?limit=1&offset=777')).data[0]!.id;
  const filters = [
    '/v1/endpoints?',
    '/v1/endpoints?osFamily=windows&',
    '/v1/endpoints?osFamily=linux&hasAgent=true&',
    '/v1/remediation-targets?',
    '/v1/remediation-targets?targetType=software&',
    '/v1/remediation-targets?status=active&targetType=software&',
    `/v1/remediation-targets?endpointId=${someEndpoint}&`,
    '/v1/scopes?status=active&',
    '/v1/vulnerability-findings?',
    '/v1/vulnerability-findings?severity=critical&',
    '/v1/vulnerability-findings?severity=high&status=open&',
    '/v1/vulnerability-findings?isKev=true&status=open&',
    '/v1/vulnerability-findings?severity=medium&status=open&isKev=false&',
    '/v1/vulnerability-findings?cveId=cve-2021-44228&',
    `/v1/vulnerability-findings?endpointId=${someEndpoint}&`,
  ];
  const lists: BenchRequest[] = [];
  for (const filter of filters) {
    const total = (await json(`${filter}limit=1`)).total as number;
    const maxOffset = Math.max(0, Math.min(10_000, total - 100));
    for (let i = 0; i < 40; i++) {
      lists.push({ kind: 'list', path: `${filter}limit=100&offset=${Math.floor(random() * (maxOffset + 1))}` });
    }
  }
  const gets: BenchRequest[] = [];
  for (const collection of ['endpoints', 'remediation-targets', 'scopes', 'vulnerability-findings']) {
    const total = (await json(`/v1/${collection}?limit=1`)).total as number;
    for (let i = 0; i < 50; i++) {
      const item = (await json(`/v1/${collection}?limit=1&offset=${Math.floor(random() * total)}`)).data[0]!;
      gets.push({ kind: 'get', path: `/v1/${collection}/${item.id}` });
    }
  }
  return { lists, gets };
}

/**
 * Requests never sent before: list pages at (filter, offset) pairs outside the cached mix, and
 * gets of ids no request named, so that each one is answered from the database, not from a
 * cache of answers. `count` is the most requests the figure may need; none repeats.
 */
export async function buildColdMix(url: string, key: string, random: () => number, mix: { lists: BenchRequest[]; gets: BenchRequest[] }, count: number): Promise<BenchRequest[]> {
  const headers = { Authorization: `Bearer ${key}` };
  const json = async (path: string) => (await fetch(url + path, { headers })).json() as Promise<{ total: number; data: { id: string }[] }>;
  const seen = new Set([...mix.lists, ...mix.gets].map((request) => request.path));
  const filters = [...new Set(mix.lists.map((request) => request.path.replace(/limit=100&offset=\d+$/, '')))];
  const maxOffsets = await Promise.all(filters.map(async (filter) => Math.max(0, Math.min(10_000, (await json(`${filter}limit=1`)).total - 100))));
  const lists: BenchRequest[] = [];
  for (let tries = 0; lists.length < count * 0.8 && tries < count * 20; tries++) {
    const which = Math.floor(random() * filters.length);
    const path = `${filters[which]}limit=100&offset=${Math.floor(random() * (maxOffsets[which]! + 1))}`;
    if (seen.has(path)) continue;
    seen.add(path);
    lists.push({ kind: 'list', path });
  }
  // Ids come from list pages with limit=99, a page size the other mixes never ask for.
  const gets: BenchRequest[] = [];
  const collections = ['endpoints', 'remediation-targets', 'scopes', 'vulnerability-findings'];
  const totals = await Promise.all(collections.map(async (collection) => (await json(`/v1/${collection}?limit=1`)).total));
  for (let page = 0; gets.length < count * 0.2 && page < 400; page++) {
    const which = page % collections.length;
    const offset = Math.floor(random() * Math.max(1, Math.min(10_000, totals[which]! - 99)));
    for (const item of (await json(`/v1/${collections[which]}?limit=99&offset=${offset}`)).data) {
      const path = `/v1/${collections[which]}/${item.id}`;
      if (!seen.has(path)) gets.push({ kind: 'get', path });
      seen.add(path);
    }
  }
  const cold = [...lists, ...gets];
  for (let i = cold.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cold[i], cold[j]] = [cold[j]!, cold[i]!];
  }
  return cold;
}

/** Result of one autocannon run. */
export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** How many requests were taken from the list; past its length they repeat. */
  sent: number;
  /** CPU time of the server's process per answered request, when its pid was given. */
  cpuMicrosPerRequest?: number;
}

/** Sends the requests round-robin over `connections` connections for `seconds`. */
export async function load(
  url: string,
  key: string,
  requests: BenchRequest[],
  connections: number,
  seconds: number,
  { start = 0, pid }: { start?: number; pid?: number } = {},
): Promise<LoadResult> {
  let next = start;
  const cpuBefore = pid === undefined ? 0 : cpuMilliseconds(pid);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { Authorization: `Bearer ${key}` },
    requests: [
      {
        setupRequest: (request) => {
          const chosen = requests[next++ % requests.length]!;
          return { ...request, path: chosen.path };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    sent: next - start,
    ...(pid === undefined ? {} : { cpuMicrosPerRequest: ((cpuMilliseconds(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total) }),
  };
}

/** A load run of {@link interleave}: where it sends which requests. */
export interface LoadRun {
  url: string;
  requests: BenchRequest[];
  /** The server's process, to measure its CPU time. */
  pid: number;
}

/**
 * Runs each of `runs` for `seconds` in all, in `rounds` alternating slices, so that the
 * machine's other work weighs on each alike; a run goes on through its requests from slice to
 * slice. Per run: the mean rate, p50 and CPU per request of the slices, their highest p99 and max.
 */
export async function interleave(key: string, runs: LoadRun[], connections: number, seconds: number, rounds = 3): Promise<LoadResult[]> {
  const slices: LoadResult[][] = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, run] of runs.entries()) {
      const start = slices[index]!.reduce((sum, slice) => sum + slice.sent, 0);
      slices[index]!.push(await load(run.url, key, run.requests, connections, Math.max(1, Math.round(seconds / rounds)), { start, pid: run.pid }));
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return slices.map((results) => ({
    requestsPerSecond: mean(results.map((result) => result.requestsPerSecond)),
    p50: mean(results.map((result) => result.p50)),
    p99: Math.max(...results.map((result) => result.p99)),
    max: Math.max(...results.map((result) => result.max)),
    non2xx: sum(results.map((result) => result.non2xx)),
    errors: sum(results.map((result) => result.errors)),
    sent: sum(results.map((result) => result.sent)),
    cpuMicrosPerRequest: mean(results.map((result) => result.cpuMicrosPerRequest ?? 0)),
  }));
}

/**
 * The floor: a bare node:http server, in its own process as the real server is, answering
 * precomputed bodies of the same sizes as the real answers, so the ratio shows what the API
 * costs beyond moving the bytes.
 */
export async function startFloorServer(bodies: Map<string, Buffer>, workDir: string): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const file = path.join(workDir, 'floor-bodies.json');
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries([...bodies].map(([key, body]) => [key, body.toString('base64')]))));
  const child = spawn(process.execPath, [path.join(root, 'bench', 'floor-server.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(/listening on (\S+)/.exec(chunk.toString())![1]!));
    child.once('exit', () => reject(new Error('the floor server exited')));
  });
  return { url, pid: child.pid!, close: () => stop(child) };
}

/** The real answers' bodies, to serve from the floor server. */
export async function fetchBodies(url: string, key: string, requests: BenchRequest[]): Promise<Map<string, Buffer>> {
  const bodies = new Map<string, Buffer>();
  for (const request of requests) {
    const response = await fetch(url + request.path, { headers: { Authorization: `Bearer ${key}` } });
    bodies.set(request.path, Buffer.from(await response.arrayBuffer()));
  }
  return bodies;
}
