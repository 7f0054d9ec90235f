import { collectionNames, collections } from '../../../contracts/collections.js';
import type { Organization } from '../../store/records/organization-records.js';
import type { Store } from '../../store/store.js';
import { jsonContentType } from '../http-error.js';
import type { OpenApiRouteRegistrar } from '../openapi/responses.js';
import { V1Answers } from './v1-answers.js';

/** A request of the v1 API whose key was found: what a route answers from. */
export interface V1Request {
  /** The path and query as sent, e.g. `/v1/endpoints?limit=10`. */
  url: string;
  /** The organization of the request's API key. */
  organization: Organization;
  /** The path's parameter segment, percent-decoded; `''` on a path without one. */
  id: string;
}

/** A successful answer: its body and headers (Content-Type first); errors are thrown as HttpError. */
export interface V1Answer {
  body: Buffer;
  headers: Record<string, string>;
}

/** What answers GET and HEAD of one path. */
export type V1Handler = (request: V1Request) => V1Answer | Promise<V1Answer>;

/** A route under /v1 owned by another module (the agent configuration download), with its OpenAPI registration. */
export interface V1Extension {
  /** `/v1/...`, a last segment `{name}` being a parameter. */
  path: string;
  answer: V1Handler;
  openapi: OpenApiRouteRegistrar;
}

const jsonHeaders = { 'Content-Type': jsonContentType };

/** A 200 answer of JSON. */
export function jsonAnswer(body: Buffer): V1Answer {
  return { body, headers: jsonHeaders };
}

/**
 * The routes of the v1 API behind its key (specification section 4), each answering GET and
 * HEAD of its path from the key's organization only:
 *
 * | path                      | answer                                                          |
 * |---------------------------|-----------------------------------------------------------------|
 * | `/v1/<collection>`        | a page of the list (400/414 for its query)                      |
 * | `/v1/<collection>/{id}`   | the item (400 for an id that is not a UUID, 404 for another's)  |
 * | `extensions[].path`       | the extension's answer (`/v1/agent/config`)                     |
 */
export function v1Routes(store: Store, extensions: V1Extension[]): [path: string, handler: V1Handler][] {
  const answers = V1Answers.of(store);
  return [
    ...collectionNames.flatMap((name): [string, V1Handler][] => {
      const { v1Path, idParameter } = collections[name];
      return [
        [v1Path, async ({ organization, url }) => jsonAnswer(await answers.list(organization.rowId, name, url))],
        [`${v1Path}/{${idParameter}}`, ({ organization, id }) => jsonAnswer(answers.get(organization.rowId, name, id))],
      ];
    }),
    ...extensions.map(({ path, answer }): [string, V1Handler] => [path, answer]),
  ];
}
