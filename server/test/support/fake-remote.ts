/**
 * A remote tenant for sync tests and the sync benchmark: a plain node:http server that serves
 * an in-memory inventory through the four v1 list operations (with their `status`, `severity`,
 * `isKev`, `hasAgent`, `osFamily` and `targetType` filters), with knobs to misbehave.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Inventory } from '../../../contracts/inventory.js';
import type { CollectionName } from '../../../contracts/collections.js';

/** A list request as the fake remote saw it; `count` numbers the list requests from 1. */
export interface FakeRequest {
  collection: CollectionName;
  limit: number;
  offset: number;
  updatedSince: string | undefined;
  count: number;
  /** When it arrived (`performance.now()`). */
  receivedAt: number;
  /** List requests being answered when it arrived, itself included. */
  inFlight: number;
}

/** A page about to be sent; a fault may change it. */
export interface FakePage {
  data: unknown[];
  total: number;
}

/** How the fake remote answers one request instead of (or on top of) the normal page. */
export type FakeFault =
  | { status: number; headers?: Record<string, string> }
  | { delayMs: number }
  | { body: string }
  | { page: (page: FakePage) => FakePage };

/** The knobs of the fake remote. */
export interface FakeRemoteOptions {
  /** What it serves; records are sent as they are, so tests may put anything in them. */
  inventory: Inventory;
  apiKey?: string;
  /** Whether it filters by `updatedSince`; default yes. */
  honoursUpdatedSince?: boolean;
  /** Its default order; `newest-first` is a remote whose order differs from ours. */
  order?: 'created' | 'newest-first';
  /**
   * Sort each collection once, not once a request (for a million items): then the inventory
   * must only change by replacing a collection's array or changing its length.
   */
  cacheOrder?: boolean;
  /** Called for every list request; a fault it returns replaces or delays the answer. */
  fault?: (request: FakeRequest) => FakeFault | undefined;
  /** The loopback port to listen on; default a free one. */
  port?: number;
  /**
   * The largest `limit` it accepts, answering 400 above it as `serve` does; default 100, the
   * specification's maximum.
   */
  maxLimit?: number;
}

/** A running fake remote. */
export interface FakeRemote {
  url: string;
  apiKey: string;
  /** The list requests seen so far. */
  requests: FakeRequest[];
  options: FakeRemoteOptions;
  close(): Promise<void>;
}

const paths: Record<string, CollectionName> = {
  '/v1/endpoints': 'endpoints',
  '/v1/remediation-targets': 'remediationTargets',
  '/v1/scopes': 'scopes',
  '/v1/vulnerability-findings': 'findings',
};

interface Item {
  id: string;
  created_at: string;
  updated_at: string;
}

function ordered(items: Item[], order: FakeRemoteOptions['order']): Item[] {
  const sign = order === 'newest-first' ? -1 : 1;
  const keyed = items.map((item) => ({ item, at: Date.parse(item.created_at) }));
  keyed.sort((a, b) => sign * (a.at - b.at || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0)));
  return keyed.map((entry) => entry.item);
}

/** The v1 filters the fake remote honours, by parameter: the item's value they compare, as text. */
const filterValues: Record<string, (item: Record<string, unknown>) => string> = {
  status: (item) => String(item.status),
  severity: (item) => String(item.severity),
  isKev: (item) => String(item.is_kev),
  hasAgent: (item) => String(item.agent_id !== null && item.agent_id !== undefined),
  osFamily: (item) => String((item.operating_system as { family?: unknown } | undefined)?.family),
  targetType: (item) => String(item.target_type),
};

/** Filtered lists, per list and filters: a sync's count checks ask the same totals of a million items again and again. */
const filteredCache = new WeakMap<Item[], Map<string, Item[]>>();

/** The items that every filter of the query (those of {@link filterValues}) accepts. */
function filteredBy(items: Item[], query: URLSearchParams): Item[] {
  const filters = [...query].filter(([name]) => name in filterValues);
  if (filters.length === 0) return items;
  const key = JSON.stringify(filters);
  let cached = filteredCache.get(items);
  if (!cached) filteredCache.set(items, (cached = new Map()));
  let filtered = cached.get(key);
  if (!filtered) {
    filtered = items.filter((item) => filters.every(([name, value]) => filterValues[name]!(item as unknown as Record<string, unknown>) === value));
    cached.set(key, filtered);
  }
  return filtered;
}

/** Starts a fake remote on a loopback port, a free one unless `options.port` names it. */
export async function startFakeRemote(options: FakeRemoteOptions): Promise<FakeRemote> {
  const apiKey = options.apiKey ?? 'fake-remote-key';
  const requests: FakeRequest[] = [];
  let inFlight = 0;
  const sortedCache = new Map<CollectionName, { source: unknown[]; length: number; sorted: Item[] }>();
  const sortedOf = (collection: CollectionName): Item[] => {
    const source = options.inventory[collection] as unknown as Item[];
    if (!options.cacheOrder) return ordered(source, options.order);
    const cached = sortedCache.get(collection);
    if (cached && cached.source === source && cached.length === source.length) return cached.sorted;
    const sorted = ordered(source, options.order);
    sortedCache.set(collection, { source, length: source.length, sorted });
    return sorted;
  };

  // An incremental sync asks for the same updatedSince page after page: filter once, by times
  // parsed once per order (parsed per page, they made the bench's sync wait on its own remote,
  // where a tenant service answers along an index).
  let filtered: { collection: CollectionName; sorted: Item[]; since: string; items: Item[] } | undefined;
  const updatedTimes = new WeakMap<Item[], Float64Array>();
  const changedSince = (collection: CollectionName, sorted: Item[], since: string): Item[] => {
    if (filtered?.collection === collection && filtered.sorted === sorted && filtered.since === since) return filtered.items;
    let times = updatedTimes.get(sorted);
    if (!times) updatedTimes.set(sorted, (times = Float64Array.from(sorted, (item) => Date.parse(item.updated_at))));
    const sinceMs = Date.parse(since);
    filtered = { collection, sorted, since, items: sorted.filter((_item, index) => times[index]! >= sinceMs) };
    return filtered.items;
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const collection = paths[url.pathname];
      if (!collection) return send(res, 404, { error: 'not found' });
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, { error: 'missing or invalid key' });
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const updatedSince = url.searchParams.get('updatedSince') ?? undefined;
      inFlight++;
      res.once('close', () => inFlight--);
      const request: FakeRequest = { collection, limit, offset, updatedSince, count: requests.length + 1, receivedAt: performance.now(), inFlight };
      requests.push(request);
      const fault = options.fault?.(request);
      if (fault && 'delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (res.destroyed) return;
      if (fault && 'status' in fault) return send(res, fault.status, { error: 'fault' }, fault.headers);
      if (fault && 'body' in fault) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return void res.end(fault.body);
      }
      const maxLimit = options.maxLimit ?? 100;
      if (limit > maxLimit) return send(res, 400, { error: `Invalid query parameter "limit": must be an integer from 1 to ${maxLimit}` });
      let items = sortedOf(collection);
      if (updatedSince !== undefined && options.honoursUpdatedSince !== false) items = changedSince(collection, items, updatedSince);
      items = filteredBy(items, url.searchParams);
      let page: FakePage = { data: items.slice(offset, offset + limit), total: items.length };
      if (fault && 'page' in fault) page = fault.page(page);
      send(res, 200, { ...page, limit, offset });
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
