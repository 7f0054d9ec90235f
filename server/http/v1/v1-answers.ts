import { type CollectionName, type V1Query, collectionSchemas, collections } from '../../../contracts/collections.js';
import type { Organization } from '../../store/organizations.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { parseUrlQuery } from '../query-parameters.js';
import { uuidPathParameter } from '../uuid-path-parameter.js';
import { AnswerCache } from './answer-cache.js';

const bearer = /^Bearer[ ]+(\S+)\s*$/i;
/** The Content-Type of every JSON answer, as express writes it for a string body. */
export const jsonContentType = 'application/json; charset=utf-8';
/** About 800 pages of a hundred findings: small beside the database that sql.js holds in memory. */
const answerCacheBytes = 64 * 2 ** 20;
/** Keys in use at once are few; more than this is someone trying keys, not worth remembering. */
const maxRememberedKeys = 256;

/** Distinct list URLs (at most 2 KiB each) whose parsing is remembered; past it, the memory starts again empty. */
const maxRememberedQueries = 10_000;

interface ParsedQuery<C extends CollectionName> {
  query: V1Query<C>;
  normalized: string;
}

/**
 * The bodies of the v1 lists and gets, and the organization of an API key, remembered for as
 * long as the data does not change (the store's version): clients poll the same pages, and a
 * page of a million findings costs far more to read than to send.
 */
export class V1Answers {
  private readonly answers = new AnswerCache(answerCacheBytes);
  private readonly keys = new Map<string, Organization>();
  private readonly queries = new Map<string, ParsedQuery<CollectionName>>();
  private keysVersion = -1;

  private constructor(private readonly store: Store) {}

  /** The answers of a store, shared by every app and listener serving it. */
  static of(store: Store): V1Answers {
    let answers = ofStore.get(store);
    if (!answers) {
      answers = new V1Answers(store);
      ofStore.set(store, answers);
    }
    return answers;
  }

  /**
   * The organization of an API key; undefined when it is no active key. Any write (a
   * revocation among them) is seen by the next call.
   */
  organizationOf(key: string): Organization | undefined {
    if (this.keysVersion !== this.store.version) {
      this.keys.clear();
      this.keysVersion = this.store.version;
    }
    const known = this.keys.get(key);
    if (known) return known;
    const orgRowId = this.store.apiKeys.organizationOf(key);
    const organization = orgRowId === undefined ? undefined : this.store.organizations.byRowId(orgRowId);
    if (organization && this.keys.size < maxRememberedKeys) this.keys.set(key, organization);
    return organization;
  }

  /** The body of a list page; `url` is the request's path and query. Throws 400/414 for an invalid query. */
  list<C extends CollectionName>(orgRowId: number, collection: C, url: string): Buffer {
    const { query, normalized } = this.parsedQuery(collection, url);
    const key = `${orgRowId} ${normalized}`;
    const version = this.store.version;
    let body = this.answers.get(version, key);
    if (!body) {
      const page = this.store.inventory.list(orgRowId, collection, query);
      body = Buffer.from(`{"data":[${page.items.join(',')}],"total":${page.total},"limit":${query.limit},"offset":${query.offset}}`);
      this.answers.set(version, key, body);
    }
    return body;
  }

  /**
   * The valid query of a list URL, and the key of its answers: the parsed query, not the URL,
   * so that the same page asked with parameters in another order or with unknown ones is one
   * entry. Parsing depends on the URL alone, so it is remembered across versions.
   */
  private parsedQuery<C extends CollectionName>(collection: C, url: string): ParsedQuery<C> {
    let parsed = this.queries.get(url) as ParsedQuery<C> | undefined;
    if (!parsed) {
      const query = parseUrlQuery(url, collectionSchemas[collection].v1);
      parsed = { query, normalized: `${collection} ${JSON.stringify(query)}` };
      if (this.queries.size >= maxRememberedQueries) this.queries.clear();
      this.queries.set(url, parsed);
    }
    return parsed;
  }

  /** The body of a get. Throws 400 for an id that is not a UUID, 404 when the organization has no such resource. */
  get(orgRowId: number, collection: CollectionName, id: string): Buffer {
    const { idParameter, labels } = collections[collection];
    const key = `${orgRowId} ${collection}/${uuidPathParameter(id, idParameter)}`;
    const version = this.store.version;
    let body = this.answers.get(version, key);
    if (!body) {
      const json = this.store.inventory.get(collection, orgRowId, id);
      if (json === undefined) throw new HttpError(404, `${labels.resource} ${id} not found`);
      body = Buffer.from(json);
      this.answers.set(version, key, body);
    }
    return body;
  }
}

const ofStore = new WeakMap<Store, V1Answers>();

/** The key of an `Authorization: Bearer <key>` header; undefined when there is none. */
export function bearerKey(authorization: string | undefined): string | undefined {
  return bearer.exec(authorization ?? '')?.[1];
}
