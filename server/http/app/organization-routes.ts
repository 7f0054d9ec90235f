import { cliCommandText } from '../../../contracts/cli-command.js';
import express from 'express';
import {
  NoSealerError,
  OrganizationExistsError,
  OrganizationFieldsError,
  OrganizationInputError,
  OrganizationNotFoundError,
  RemoteCheckFailedError,
  RemoteKeyRequiredError,
  connectReplicaOrganization,
  removeOrganization,
  updateOrganization,
} from '../../organizations/manage-organizations.js';
import {
  type ConnectOrganizationBody,
  type ConsoleOrganization,
  type UpdateOrganizationBody,
  connectOrganizationBodySchema,
  consoleOrganizationSchema,
  organizationListSchema,
  updateOrganizationBodySchema,
} from '../../../contracts/console/organizations.js';
import { type FieldErrorBody, fieldErrorSchema } from '../../../contracts/common.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Organization } from '../../store/records/organization-records.js';
import type { Store } from '../../store/store.js';
import type { SyncScheduler } from '../../sync/sync-scheduler.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation, registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { jsonBody, jsonObjectSchema, parsedBody, sendFieldIssues } from './json-body.js';
import { organizationOf, resolveOrganization } from './organization-param.js';

/** An organization as the console sees it: never a secret, never the internal row and inventory ids. */
export function consoleOrganization({ rowId: _rowId, inventoryId: _inventoryId, certificatePem: _pem, ...organization }: Organization): ConsoleOrganization {
  return organization;
}

/** The largest body `POST /app/organizations` and `PATCH /app/orgs/:slug` read. */
const connectBodyLimit = '16kb';

/** Answers a mistake in managing organizations with its status: 422 with each field's issue, 409, 404, 501, 502 or 400 (naming `apiKey` when a new URL came without it). */
function answerOrganizationError(error: unknown, res: express.Response): void {
  if (error instanceof OrganizationFieldsError) {
    res.status(422).json({ error: `Invalid body: ${error.message}`, issues: error.issues } satisfies FieldErrorBody);
    return;
  }
  if (error instanceof RemoteKeyRequiredError) return sendFieldIssues(res, [{ field: error.field, message: RemoteKeyRequiredError.reason }]);
  if (error instanceof OrganizationExistsError) throw new HttpError(409, error.message);
  if (error instanceof OrganizationNotFoundError) throw new HttpError(404, error.message);
  if (error instanceof NoSealerError) throw new HttpError(501, error.message);
  if (error instanceof RemoteCheckFailedError) throw new HttpError(502, error.message);
  if (error instanceof OrganizationInputError) throw new HttpError(400, error.message);
  throw error;
}

/** What connecting and disconnecting replicas takes. */
export interface OrganizationRoutesContext {
  store: Store;
  /** Seals the remote API key: the CLI's key-file sealer headless, the app's own in Electron; without one, nothing can be connected (501). */
  sealer?: Sealer;
  /** Starts a connected replica's first sync and interrupts a disconnected one's. */
  sync?: SyncScheduler;
  /** Where technical reports' appendices are (report-appendix.ts): a disconnected replica's go with it. */
  appendixFolder?: string;
}

/**
 * `GET /app/organizations` lists them. `POST /app/organizations` connects a replica of a remote tenant (201; 422 with each field's
 * issue; 409 when the slug is taken; 502 when the remote cannot be reached or refuses the key),
 * then starts its first sync. `PATCH /app/orgs/:slug` changes a replica's URL, key or name, or
 * a local organization's name, in place (the same answers; a new URL or key starts a sync). `DELETE /app/orgs/:slug` disconnects a replica: its sync is
 * interrupted and its data and sealed key removed (204); a local organization is refused (409).
 */
export function organizationRoutes(context: OrganizationRoutesContext): express.Router {
  const { store, sealer, sync, appendixFolder } = context;
  const router = express.Router();

  router.get('/organizations', (_req, res) => {
    res.json({ data: store.organizations.list().map(consoleOrganization) });
  });

  // The body's fields are checked by manage-organizations.ts, which answers each field's issue (422).
  router.post('/organizations', jsonBody(connectBodyLimit), async (req, res) => {
    const body = parsedBody(req, res, jsonObjectSchema, 'slug, name, remoteUrl and apiKey');
    if (!body) return;
    if (!sealer) throw new HttpError(501, 'This server cannot store secrets: connect remote tenants from the desktop app or serve');
    let organization: Organization;
    try {
      organization = await connectReplicaOrganization(store, sealer, body as ConnectOrganizationBody);
    } catch (error) {
      answerOrganizationError(error, res);
      return;
    }
    // The outcome is recorded in the store; the console follows it through the sync status.
    sync?.syncNow(organization.slug).catch(() => undefined);
    res.status(201).json(consoleOrganization(organization));
  });

  router.patch('/orgs/:slug', resolveOrganization(store), jsonBody(connectBodyLimit), async (req, res) => {
    const body = parsedBody(req, res, jsonObjectSchema, 'any of name, remoteUrl and apiKey') as UpdateOrganizationBody | undefined;
    if (!body) return;
    let organization: Organization;
    try {
      organization = await updateOrganization(store, sealer, organizationOf(res), body);
    } catch (error) {
      answerOrganizationError(error, res);
      return;
    }
    // A new address or key shows it works at once, as a first sync does; a sync running on the
    // old ones ends as it will, and the next one reads the new.
    if ((body.remoteUrl !== undefined || body.apiKey !== undefined) && sync && !sync.isRunning(organization.slug)) {
      sync.syncNow(organization.slug).catch(() => undefined);
    }
    res.json(consoleOrganization(organization));
  });

  router.delete('/orgs/:slug', resolveOrganization(store), async (_req, res) => {
    const organization = organizationOf(res);
    if (organization.kind !== 'replica') {
      throw new HttpError(409, `"${organization.slug}" is a local organization: only replicas are disconnected here (remove it with ${cliCommandText(`orgs remove --slug ${organization.slug}`)})`);
    }
    const remove = () => {
      // A second disconnect may have removed it while the sync stopped.
      if (!store.organizations.bySlug(organization.slug)) throw new HttpError(404, `Organization "${organization.slug}" not found`);
      removeOrganization(store, organization.slug, appendixFolder);
    };
    if (sync) await sync.disconnect(organization.slug, remove);
    else remove();
    res.status(204).end();
  });

  return router;
}

/** {@link organizationRoutes} in the /app OpenAPI document. */
export const organizationOperations: OpenApiRouteRegistrar = (registry) => {
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/organizations',
    operationId: 'listOrganizations',
    summary: 'List the organizations',
    tag: 'Organizations',
    responses: { 200: jsonResponse(organizationListSchema, 'Every organization of the store, local and replica.') },
  });
  registerConsoleOperation(registry, {
    method: 'post',
    path: '/organizations',
    operationId: 'connectOrganization',
    summary: 'Connect a replica of a remote tenant',
    description: "The remote is checked with the key before anything is stored; the replica's first sync starts at once.",
    tag: 'Organizations',
    request: { body: { required: true, content: { 'application/json': { schema: connectOrganizationBodySchema } } } },
    responses: {
      201: jsonResponse(consoleOrganizationSchema, 'The replica, connected.'),
      400: jsonResponse(fieldErrorSchema, 'The body is not JSON, or not a JSON object: the one issue names `body`.'),
      409: errorResponse('An organization has this slug already.'),
      413: errorResponse(`The body is larger than ${connectBodyLimit}.`),
      422: jsonResponse(fieldErrorSchema, "A field is invalid: each field's issue is listed."),
      501: errorResponse('This server cannot seal secrets, so it connects nothing.'),
      502: errorResponse('The remote tenant could not be reached, or refused the key.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'patch',
    path: '',
    operationId: 'updateOrganization',
    summary: "Change a replica's remote URL, key or name, or a local organization's name",
    description:
      'The organization is changed in place: its data, exceptions, deadlines, agent settings and change history stay. A new URL or key is checked against the remote ' +
      '(a new key with the URL that stays) before anything is saved; then a sync starts, unless one runs. A new `remoteUrl` needs a new `apiKey` in the same body: ' +
      'the stored key is never sent to another address (a URL that differs only by a trailing slash or `/v1` is the same address). ' +
      'A local organization has no remote: only its name changes.',
    tag: 'Organizations',
    request: { body: { required: true, content: { 'application/json': { schema: updateOrganizationBodySchema } } } },
    responses: {
      200: jsonResponse(consoleOrganizationSchema, 'The organization, changed.'),
      400: errorResponse(
        'The body is not JSON, or not a JSON object (then with `issues` naming `body`); or it gives a remote URL or key to a local organization; or it gives a new `remoteUrl` without `apiKey` ' +
          '(then with `issues` naming `apiKey`: "a new address needs its key: the stored key is never sent to another address"), and nothing was asked of any remote.',
      ),
      404: errorResponse('It was disconnected meanwhile.'),
      413: errorResponse(`The body is larger than ${connectBodyLimit}.`),
      422: jsonResponse(fieldErrorSchema, "A field is invalid: each field's issue is listed."),
      501: errorResponse('This server cannot seal secrets, so it changes no remote URL or key.'),
      502: errorResponse('The remote tenant could not be reached at the new address, or refused the key: nothing was changed.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'delete',
    path: '',
    operationId: 'disconnectOrganization',
    summary: 'Disconnect a replica',
    description: 'Its running sync is interrupted, then its data and sealed key are removed.',
    tag: 'Organizations',
    responses: {
      204: { description: 'The replica is gone.' },
      404: errorResponse('It was disconnected meanwhile.'),
      409: errorResponse('The organization is local: only replicas are disconnected here.'),
    },
  });
};
