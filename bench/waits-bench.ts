/**
 * How long requests wait behind another request's work: a `serve` of a copy of the dataset,
 * `/health` asked every 10 ms while each heavy request runs (bench/health-pings.ts), one at a
 * time, in the order a console in use meets them: the first sorted pages of the findings, the
 * coverage gaps, a write and the dashboard after it, then a new replica's full sync from a
 * second `serve` (fetching, then applying), a sync that finds nothing new, and, from a remote
 * with 1 % changed in its place (changed-remote.ts), a day's sync and a full sync that compares.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type HealthPing, pingHealth } from './health-pings.js';
import { checkpointThresholdBytes } from '../server/store/engine/durable-file.js';
import { dataDirectoryFiles } from '../server/store/engine/data-directory.js';
import type { DatasetSize } from '../contracts/inventory.js';
import { startChangedRemote } from './changed-remote.js';
import { changeLogBytes, copyDataDir, requestAlone, startServe, stop } from './support.js';

/** The seeded data directory to serve, and its organization. */
export interface WaitsSource {
  dataDir: string;
  /** An API key of its organization, for the replica that syncs from a second `serve` of it. */
  key: string;
  slug: string;
  /** What it was seeded with, for the remote with 1 % changed that then takes that `serve`'s place. */
  size: DatasetSize;
  seed: number;
}

/** The waits while one piece of work ran; `requestMs` is the heavy request's own time, when it is one request. */
export interface WaitRow {
  what: string;
  requestMs?: number;
  pings: HealthPing[];
}

/** A running `serve`: its address and the console session's credential. */
export interface Server {
  url: string;
  consoleToken: string;
}

/** A console request through /app with the session's credential, refused unless answered 2xx; its JSON answer (undefined for none). */
export async function consoleRequest(server: Server, method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, body?: unknown): Promise<unknown> {
  const { status, text } = await requestAlone(`${server.url}/app${route}`, {
    method,
    headers: { 'x-console-script-token': server.consoleToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (status < 200 || status >= 300) throw new Error(`${method} ${route}: ${status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** A v1 request with an API key, refused unless answered 200. */
async function v1Request(server: Server, key: string, route: string): Promise<void> {
  const { status, text } = await requestAlone(`${server.url}${route}`, { method: 'GET', headers: { authorization: `Bearer ${key}` } });
  if (status !== 200) throw new Error(`GET ${route}: ${status} ${text}`);
}

/** One console request (or `request`), timed, with the `/health` waits while it ran. */
async function whileRequest(
  server: Server,
  what: string,
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  request = () => consoleRequest(server, method, route, body),
): Promise<WaitRow> {
  const pinger = pingHealth(server.url);
  const started = performance.now();
  try {
    await request();
    const requestMs = performance.now() - started;
    return { what, requestMs, pings: await pinger.stop() };
  } finally {
    await pinger.stop();
  }
}

interface SyncStatusAnswer {
  running: boolean;
  progress: { phase: string } | null;
  state: { lastSuccessMode: string | null; lastError: string | null; lastSuccessAt: string | null };
}

/**
 * A sync of the replica `slug`, started by `start`, followed through `GET /sync` every 250 ms
 * until it ends: the waits while it fetched (up to the last status answered in a fetching or
 * checking phase; a full sync stages its pages into the store meanwhile) and after (a full
 * sync's swap or an incremental one's merge, each one transaction with the sync's record).
 * The collection of an inventory a full sync replaced runs after the sync ends; a new
 * replica's first sync replaces an empty one.
 */
export async function whileSync(server: Server, slug: string, what: string, mode: 'full' | 'incremental' | 'reconcile', start: () => Promise<unknown>): Promise<WaitRow[]> {
  const pinger = pingHealth(server.url);
  const started = performance.now();
  let lastFetching = started;
  let status: SyncStatusAnswer;
  try {
    await start();
    for (;;) {
      status = (await consoleRequest(server, 'GET', `/orgs/${slug}/sync`)) as SyncStatusAnswer;
      if (!status.running) break;
      if (status.progress && ['checking', 'fetching'].includes(status.progress.phase)) lastFetching = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await pinger.stop();
  }
  const pings = await pinger.stop();
  const syncMs = performance.now() - started;
  if (status.state.lastError !== null || status.state.lastSuccessMode !== mode) {
    throw new Error(`the ${mode} sync of ${slug} ended as ${status.state.lastSuccessMode}: ${status.state.lastError}`);
  }
  return [
    { what: `${what}: fetching (${(syncMs / 1000).toFixed(1)} s in all)`, pings: pings.filter((ping) => ping.answered <= lastFetching) },
    { what: `${what}: applying, from the last status seen fetching to the end`, pings: pings.filter((ping) => ping.answered > lastFetching) },
  ];
}

/**
 * The waits from now until the served store's change logs are folded into its snapshot as far
 * as the threshold's checkpoints a sync leaves running fold them: the logs are then under the
 * threshold (a share of the snapshot), where they stay until later writes pass it again. What
 * is left is logged pages and statements under that share, replayed at an open.
 */
async function whileCheckpoints(server: Server, dataDir: string): Promise<WaitRow> {
  const { database } = dataDirectoryFiles(dataDir);
  const logBytes = () => changeLogBytes(database);
  const pinger = pingHealth(server.url);
  const started = performance.now();
  const startBytes = logBytes();
  const snapshotBytes = () => fs.statSync(database).size;
  try {
    while (logBytes() >= checkpointThresholdBytes(snapshotBytes())) {
      if (performance.now() - started > 300_000) throw new Error(`the change logs of ${dataDir} were not folded in 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await pinger.stop();
  }
  const what = `checkpoints after it, until its logs are under the checkpoints' threshold (${(startBytes / 2 ** 20).toFixed(0)} MiB of logs at its end, ${(logBytes() / 2 ** 20).toFixed(0)} MiB after, ${((performance.now() - started) / 1000).toFixed(1)} s)`;
  return { what, pings: await pinger.stop() };
}

/** Measures the waits in `workDir` (two copies of the dataset are made there); `log` hears the steps. */
export async function measureWaits(source: WaitsSource, workDir: string, log: (line: string) => void): Promise<WaitRow[]> {
  const servedDir = path.join(workDir, 'waits-served');
  const remoteDir = path.join(workDir, 'waits-remote');
  log('copying the dataset twice');
  copyDataDir(source.dataDir, servedDir);
  copyDataDir(source.dataDir, remoteDir);
  const serve = await startServe(servedDir);
  const remote = await startServe(remoteDir);
  try {
    const org = `/orgs/${source.slug}`;
    // serve reads the dashboard's coverage columns and the exposure figures a little after it
    // starts: this waits for that warm-up, of both servers (they share two cores), so that what
    // follows is measured alone, as on servers that have settled.
    for (const server of [serve, remote]) {
      await consoleRequest(server, 'GET', `${org}/dashboard`);
      await consoleRequest(server, 'GET', `${org}/remediation-plan`);
    }
    const rows: WaitRow[] = [];
    const measure = async (what: string, method: 'GET' | 'POST', route: string, body?: unknown) => {
      log(what);
      rows.push(await whileRequest(serve, what, method, route, body));
    };
    await measure('findings sorted by CVSS score (descending), first page, first time', 'GET', `${org}/vulnerability-findings?sort=-cvss_score&limit=100`);
    await measure('findings sorted by CVE, first page, first time', 'GET', `${org}/vulnerability-findings?sort=cve_id&limit=100`);
    await measure('findings sorted by first detection (descending), first page, first time', 'GET', `${org}/vulnerability-findings?sort=-first_detected_at&limit=100`);
    await measure('coverage gaps, first page, first time', 'GET', `${org}/coverage-gaps?limit=50`);
    // A v1 client's first page counts the list's total, as after every write of the data.
    const v1Page = "a v1 client's findings list, first page, first time";
    log(v1Page);
    rows.push(await whileRequest(serve, v1Page, 'GET', '/v1/vulnerability-findings?limit=100', undefined, () => v1Request(serve, source.key, '/v1/vulnerability-findings?limit=100')));
    await measure('a write: an API key created through /app', 'POST', `${org}/api-keys`, { label: 'waits benchmark' });
    // A key is a write of `api-keys` alone: the dashboard, read from the inventory, stays computed.
    await measure('the dashboard after that write', 'GET', `${org}/dashboard`);

    log('a full sync of a new replica from a second serve');
    const connect = { slug: 'replica', name: 'Replica', remoteUrl: remote.url, apiKey: source.key };
    rows.push(...(await whileSync(serve, 'replica', 'a new replica\'s full sync from another `serve` (the connect included)', 'full', () => consoleRequest(serve, 'POST', '/organizations', connect))));
    // The dashboard as soon as the sync is done, before serve's warm-up reads it: its million
    // findings' columns read while the sync's checkpoints run, what a write of the data costs.
    log("the new replica's dashboard");
    rows.push(await whileRequest(serve, "the new replica's dashboard right after its sync (reads its findings' columns while checkpoints run)", 'GET', '/orgs/replica/dashboard'));
    log('the checkpoints folding what the sync logged');
    rows.push(await whileCheckpoints(serve, servedDir));
    // The exposure figures that serve computes after a sync, asked now rather than met during the next row.
    await consoleRequest(serve, 'GET', '/orgs/replica/remediation-plan');
    log('a sync of it with nothing changed');
    rows.push(...(await whileSync(serve, 'replica', 'its sync with nothing changed', 'incremental', () => consoleRequest(serve, 'POST', '/orgs/replica/sync'))));
    // The Changes view's one request (issue 15): the first time since the syncs, then repeated.
    await measure("the replica's Changes view (listSyncChanges), first time", 'GET', '/orgs/replica/sync-changes');
    await measure("the replica's Changes view (listSyncChanges), repeated", 'GET', '/orgs/replica/sync-changes');
    rows.push(...(await whileChangedRemote(serve, source, Number(new URL(remote.url).port), () => stop(remote.child), log)));
    return rows;
  } finally {
    await stop(serve.child);
    await stop(remote.child);
  }
}

/**
 * The replica's syncs of a day's change: the remote `serve` is stopped and a remote with 1 % of
 * each collection changed takes its port (changed-remote.ts); the replica syncs (incremental), then,
 * another 1 % changed, runs a full sync, which compares the replica with the remote and writes the
 * differences in one transaction (under 50,000 of them, it stages nothing).
 */
async function whileChangedRemote(serve: Server, source: WaitsSource, port: number, stopRemote: () => Promise<void>, log: (line: string) => void): Promise<WaitRow[]> {
  await stopRemote();
  const rows: WaitRow[] = [];
  const changed = { size: source.size, seed: source.seed, apiKey: source.key, port };
  log('a sync of the replica with 1 % changed (the remote generated again, in a process of its own)');
  let remote = await startChangedRemote({ ...changed, residues: [50] });
  try {
    rows.push(...(await whileSync(serve, 'replica', 'its sync with 1 % of each collection changed (a remote of the same dataset in its place)', 'incremental', () => consoleRequest(serve, 'POST', '/orgs/replica/sync'))));
  } finally {
    await remote.close();
  }
  log('a full sync of the replica with another 1 % changed');
  remote = await startChangedRemote({ ...changed, residues: [50, 25] });
  try {
    rows.push(...(await whileSync(serve, 'replica', 'its full sync, another 1 % changed (compares, writes the differences)', 'full', () => consoleRequest(serve, 'POST', '/orgs/replica/sync?full=true'))));
  } finally {
    await remote.close();
  }
  return rows;
}
