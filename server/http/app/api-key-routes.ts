import express from 'express';
import { fieldErrorSchema, uuidSchema } from '../../../contracts/common.js';
import { apiKeyListSchema, createApiKeyBodySchema, createdApiKeySchema } from '../../../contracts/console/api-keys.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { jsonBody, parsedBody } from './json-body.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** The largest body `POST /app/orgs/:slug/api-keys` reads. */
const createBodyLimit = '4kb';

/** An organization's local API keys, under `/app/orgs/:slug/api-keys`: create, list, revoke. */
export function apiKeyRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/api-keys', (_req, res) => {
    res.json({ data: store.apiKeys.list(organizationOf(res).rowId) });
  });

  router.post('/api-keys', jsonBody(createBodyLimit), (req, res) => {
    // The body is optional: without one, the key has no label.
    const body = parsedBody(req, res, createApiKeyBodySchema.default({ label: null }), 'the API key');
    if (!body) return;
    const org = organizationOf(res).rowId;
    const created = store.apiKeys.create(org, body.label);
    res.status(201).json(created);
  });

  router.delete('/api-keys/:keyId', (req, res) => {
    const keyId = uuidParam(req, 'keyId');
    const org = organizationOf(res).rowId;
    if (!store.apiKeys.revoke(org, keyId)) throw new HttpError(404, `No active API key ${keyId}`);
    res.status(204).end();
  });

  return router;
}

/** {@link apiKeyRoutes} in the /app OpenAPI document. */
export const apiKeyOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/api-keys',
    operationId: 'listApiKeys',
    summary: "List the organization's API keys",
    description: 'Active and revoked keys, never the keys themselves.',
    tag: 'API keys',
    responses: { 200: jsonResponse(apiKeyListSchema, 'The keys.') },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: 'The key is in this answer only; the server keeps its hash.',
    tag: 'API keys',
    request: { body: { content: { 'application/json': { schema: createApiKeyBodySchema } } } },
    responses: {
      201: jsonResponse(createdApiKeySchema, 'The key, shown this once, and its listed form.'),
      400: jsonResponse(fieldErrorSchema, "The body is not JSON, or a field is invalid: each field's issue is listed, and nothing is saved."),
      413: errorResponse(`The body is larger than ${createBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'delete',
    path: '/api-keys/:keyId',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    tag: 'API keys',
    params: { keyId: uuidSchema.meta({ description: "The key's id." }) },
    responses: {
      204: { description: 'The key is revoked.' },
      400: errorResponse('The keyId is not a UUID.'),
      404: errorResponse('The organization has no active key with this id.'),
    },
  });
};
