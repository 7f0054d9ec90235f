import type { ServerResponse } from 'node:http';
import type { Store } from '../../store/store.js';
import type { FastPath } from '../fast-path.js';
import { guardHeaders } from '../loopback-guard.js';
import { V1Answers, bearerKey, jsonContentType } from './v1-answers.js';
import { type CollectionName, collectionNames, collections } from '../../../contracts/collections.js';

const byPath = new Map(collectionNames.map((name) => [collections[name].v1Path, name]));
/** A get's id segment taken as is: one with escapes (or anything else unusual) is left to express. */
const plainSegment = /^[0-9A-Za-z-]+$/;

/**
 * The v1 lists and gets (GET and HEAD) without express: the same Host check, API key, query
 * validation and cached answers as the express routes, with the same headers. Only successful
 * answers are written here; a request that is refused, fails, or that express might answer
 * otherwise (a conditional request, a path it normalizes) falls through to express, which then
 * writes the one error answer of the API.
 */
export function v1FastPath(store: Store, acceptedHosts: () => Set<string>): FastPath {
  const answers = V1Answers.of(store);
  return (req, res) => {
    const { method, url, headers } = req;
    if ((method !== 'GET' && method !== 'HEAD') || !url?.startsWith('/v1/')) return false;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    const host = headers.host?.toLowerCase();
    if (!host || !acceptedHosts().has(host)) return false;
    const queryStart = url.indexOf('?');
    const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
    let resource: CollectionName | undefined = byPath.get(pathname);
    let id: string | undefined;
    if (!resource) {
      const slash = pathname.lastIndexOf('/');
      resource = byPath.get(pathname.slice(0, slash));
      id = pathname.slice(slash + 1);
      if (!resource || !plainSegment.test(id)) return false;
    }
    const key = bearerKey(headers.authorization);
    const organization = key === undefined ? undefined : answers.organizationOf(key);
    if (!organization) return false;
    let body: Buffer;
    try {
      body = id === undefined ? answers.list(organization.rowId, resource, url) : answers.get(organization.rowId, resource, id);
    } catch {
      return false;
    }
    send(res, body, method === 'HEAD');
    return true;
  };
}

/** Writes a 200 answer with the headers the express app writes, in its order. */
function send(res: ServerResponse, body: Buffer, head: boolean): void {
  res.writeHead(200, {
    ...guardHeaders,
    'Content-Type': jsonContentType,
    'Content-Length': body.length,
  });
  res.end(head ? undefined : body);
}
