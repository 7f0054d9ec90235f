import express from 'express';
import {
  OrganizationExistsError,
  OrganizationFieldsError,
  RemoteCheckFailedError,
  connectReplicaOrganization,
  removeOrganization,
} from '../../organizations/manage-organizations.js';
import { RemoteUnreachableError } from '../../remote/remote-tenant.js';
import {
  type ConnectOrganizationBody,
  type ConsoleOrganization,
  connectOrganizationBodySchema,
  consoleOrganizationSchema,
  organizationListSchema,
} from '../../../contracts/console/organizations.js';
import { type FieldErrorBody, fieldErrorSchema } from '../../../contracts/common.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Organization } from '../../store/organizations.js';
import type { Store } from '../../store/store.js';
import type { SyncScheduler } from '../../sync/sync-scheduler.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation, registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { organizationOf, resolveOrganization } from './organization-param.js';

/** An organization as the console sees it: never a secret, never the internal row and inventory ids. */
export function consoleOrganization({ rowId: _rowId, inventoryId: _inventoryId, certificatePem: _pem, ...organization }: Organization): ConsoleOrganization {
  return organization;
}

/** The largest body `POST /app/organizations` reads. */
const connectBodyLimit = '16kb';

/** What connecting and disconnecting replicas takes. */
export interface OrganizationRoutesContext {
  store: Store;
  /** Seals the remote API key: the CLI's key-file sealer headless, the app's own in Electron; without one, nothing can be connected (501). */
  sealer?: Sealer;
  /** Starts a connected replica's first sync and interrupts a disconnected one's. */
  sync?: SyncScheduler;
}

/**
 * `GET /app/organizations` lists them. `POST /app/organizations` connects a replica of a remote tenant (201; 422 with each field's
 * issue; 409 when the slug is taken; 502 when the remote cannot be reached or refuses the key),
 * then starts its first sync. `DELETE /app/orgs/:slug` disconnects a replica: its sync is
 * interrupted and its data and sealed key removed (204); a local organization is refused (409).
 */
export function organizationRoutes(context: OrganizationRoutesContext): express.Router {
  const { store, sealer, sync } = context;
  const router = express.Router();

  router.get('/organizations', (_req, res) => {
    res.json({ data: store.organizations.list().map(consoleOrganization) });
  });

  router.post('/organizations', express.json({ limit: connectBodyLimit }), async (req, res) => {
    if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
      throw new HttpError(400, 'The body must be a JSON object with slug, name, remoteUrl and apiKey');
    }
    if (!sealer) throw new HttpError(501, 'This server cannot store secrets: connect remote tenants from the desktop app or serve');
    let organization: Organization;
    try {
      organization = await connectReplicaOrganization(store, sealer, req.body as ConnectOrganizationBody);
    } catch (error) {
      if (error instanceof OrganizationFieldsError) {
        res.status(422).json({ error: `Invalid body: ${error.message}`, issues: error.issues } satisfies FieldErrorBody);
        return;
      }
      if (error instanceof OrganizationExistsError) throw new HttpError(409, error.message);
      if (error instanceof RemoteCheckFailedError || error instanceof RemoteUnreachableError) throw new HttpError(502, error.message);
      throw error;
    }
    // The outcome is recorded in the store; the console follows it through the sync status.
    sync?.syncNow(organization.slug).catch(() => undefined);
    res.status(201).json(consoleOrganization(organization));
  });

  router.delete('/orgs/:slug', resolveOrganization(store), async (_req, res) => {
    const organization = organizationOf(res);
    if (organization.kind !== 'replica') {
      throw new HttpError(409, `"${organization.slug}" is a local organization: only replicas are disconnected here (remove it with "remediation-console orgs remove")`);
    }
    const remove = () => {
      // A second disconnect may have removed it while the sync stopped.
      if (!store.organizations.bySlug(organization.slug)) throw new HttpError(404, `Organization "${organization.slug}" not found`);
      removeOrganization(store, organization.slug);
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
      400: errorResponse('The body is not JSON, or not a JSON object.'),
      409: errorResponse('An organization has this slug already.'),
      413: errorResponse(`The body is larger than ${connectBodyLimit}.`),
      422: jsonResponse(fieldErrorSchema, "A field is invalid: each field's issue is listed."),
      501: errorResponse('This server cannot seal secrets, so it connects nothing.'),
      502: errorResponse('The remote tenant could not be reached, or refused the key.'),
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
