import { derivedValue } from '../../store/derived/change-kinds.js';
import { type CollectionName, type V1Query, collectionSchemas, collections } from '../../../contracts/collections.js';
import { DerivedCache } from '../../store/derived/derived-cache.js';
import type { Organization } from '../../store/records/organization-records.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { maxQueryLength, parseUrlQuery } from '../query-parameters.js';
import { uuidPathParameter } from '../uuid-path-parameter.js';
import { answerCache } from './answer-cache.js';

// The values this file keeps, by name and the kinds of change they are read from (derived/change-kinds.ts).
const apiKeyOrganizations = derivedValue('organizations of API keys', ['api-keys', 'organizations']);
const parsedQueries = derivedValue('parsed v1 queries', []);

const bearer = /^Bearer[ ]+(\S+)\s*$/i;
/**
 * An `offset` parameter of at most 15 digits: below 2^53, so the schema takes any such value as
 * it is (contracts/list-queries.ts).
 */
const plainOffset = /(^|&)offset=(\d{1,15})(?=&|$)/;

interface ParsedQuery<C extends CollectionName> {
  query: V1Query<C>;
  normalized: string;
}

/**
 * The bodies of the v1 lists and gets, and the organization of an API key, remembered for as
 * long as what each is read from does not change (the inventory; the keys and organizations):
 * clients poll the same pages, and a page of a million findings costs far more to read than to
 * send.
 */
export class V1Answers {
  private readonly answers: DerivedCache<Buffer>;
  /**
   * The organization of each valid key: a revocation, or a change of the organization, is seen
   * by the next request.
   * Bound: 256 keys (keys in use at once are few); an invalid key is not kept, so trying keys
   * fills nothing.
   */
  private readonly keys: DerivedCache<Organization | undefined>;
  /**
   * The parsed query of each list URL: it depends on the URL alone, so no write drops it. Kept
   * from a URL's second request: a client paging through a list asks each URL once, and a map of
   * 10,000 such URLs cost every hit on it 20 µs (V8 moving a key to the end of a `Map` that
   * large), where a polled URL's hit costs 1.
   * Bound: 10,000 URLs (at most 2 KiB each), and as many asked once remembered.
   */
  private readonly queries: DerivedCache<ParsedQuery<CollectionName>>;

  private constructor(private readonly store: Store) {
    this.answers = answerCache(store.changes);
    this.keys = new DerivedCache(store.changes, apiKeyOrganizations, { bound: { entries: 256 } });
    this.queries = new DerivedCache(store.changes, parsedQueries, { bound: { entries: 10_000 }, keepFromSecondRequest: { remembered: 10_000 } });
  }

  /** The answers of a store, shared by every listener serving it. */
  static of(store: Store): V1Answers {
    let answers = ofStore.get(store);
    if (!answers) {
      answers = new V1Answers(store);
      ofStore.set(store, answers);
    }
    return answers;
  }

  /** The organization of an API key; undefined when it is no active key. */
  organizationOf(key: string): Organization | undefined {
    return this.keys.getOrCompute(key, () => {
      const orgRowId = this.store.apiKeys.organizationOf(key);
      return orgRowId === undefined ? undefined : this.store.organizations.byRowId(orgRowId);
    });
  }

  /**
   * The body of a list page; `url` is the request's path and query. Throws 400/414 for an
   * invalid query. The first page asked after a write counts its list's total first, between
   * turns of the event loop; the page itself is then one walk of an index.
   */
  async list<C extends CollectionName>(orgRowId: number, collection: C, url: string): Promise<Buffer> {
    const { query, normalized } = this.parsedQuery(collection, url);
    const key = `${orgRowId} ${normalized}`;
    if (this.answers.get(key) === undefined) await this.store.inventory.countList(orgRowId, collection, query);
    return this.answers.getOrCompute(key, () => {
      const page = this.store.inventory.list(orgRowId, collection, query);
      return Buffer.from(`{"data":[${page.items.join(',')}],"total":${page.total},"limit":${query.limit},"offset":${query.offset}}`);
    });
  }

  /**
   * The valid query of a list URL, and the key of its answers: the parsed query, not the URL,
   * so that the same page asked with parameters in another order or with unknown ones is one
   * entry.
   */
  private parsedQuery<C extends CollectionName>(collection: C, url: string): ParsedQuery<C> {
    // One cache for every collection: a URL's path names its collection, so the entry under a URL
    // is always of the collection asked for here, which TypeScript cannot see through the key.
    return this.queries.getOrCompute(url, () => {
      const query = this.withPlainOffset(collection, url) ?? parseUrlQuery(url, collectionSchemas[collection].v1);
      return { query, normalized: `${collection} ${JSON.stringify(query)}` };
    }) as ParsedQuery<C>;
  }

  /**
   * The query of a URL whose one `offset` is plain digits, from the parsed query of the same URL
   * without it: a client paging through a list asks each URL once, and the schema's parse cost a
   * tenth of such a page. Undefined where the whole URL must be parsed: no such offset, another
   * parameter that may name `offset` (an escape, a second one), or a query too long.
   */
  private withPlainOffset<C extends CollectionName>(collection: C, url: string): V1Query<C> | undefined {
    const start = url.indexOf('?');
    const search = url.slice(start + 1);
    if (start < 0 || search.length > maxQueryLength || /[%+]/.test(search) || search.indexOf('offset') !== search.lastIndexOf('offset')) return undefined;
    const offset = plainOffset.exec(search);
    if (!offset) return undefined;
    const rest = `${search.slice(0, offset.index)}${search.slice(offset.index + offset[0].length)}`.replace(/^&/, '');
    // The rest parses as the whole would: the offset it leaves out has no problem to report first.
    return { ...this.parsedQuery(collection, `${url.slice(0, start)}?${rest}`).query, offset: Number(offset[2]) };
  }

  /** The body of a get. Throws 400 for an id that is not a UUID, 404 when the organization has no such resource. */
  get(orgRowId: number, collection: CollectionName, id: string): Buffer {
    const { idParameter, labels } = collections[collection];
    return this.answers.getOrCompute(`${orgRowId} ${collection}/${uuidPathParameter(id, idParameter)}`, () => {
      const json = this.store.inventory.get(collection, orgRowId, id);
      if (json === undefined) throw new HttpError(404, `${labels.resource} ${id} not found`);
      return Buffer.from(json);
    });
  }
}

const ofStore = new WeakMap<Store, V1Answers>();

/** The key of an `Authorization: Bearer <key>` header; undefined when there is none. */
export function bearerKey(authorization: string | undefined): string | undefined {
  return bearer.exec(authorization ?? '')?.[1];
}
