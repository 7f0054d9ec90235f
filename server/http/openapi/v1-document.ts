import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { collectionNames, collections } from '../../../contracts/collections.js';
import { uuidSchema } from '../../../contracts/common.js';
import { generateDocument } from './generate-document.js';
import { type OpenApiRouteRegistrar, errorResponse, guardAndServerErrors, jsonResponse, openApiDocumentSchema, queryErrors } from './responses.js';
import { apiKeySecurityScheme, registerV1Operation } from './v1-operations.js';

/** The list and get operations of the four collections, from the registry. */
function registerCollections(registry: OpenAPIRegistry): void {
  for (const name of collectionNames) {
    const { v1Path, idParameter, labels, item, v1Query, list, resourceId } = collections[name];
    registerV1Operation(registry, {
      method: 'get',
      path: v1Path,
      operationId: `list${resourceId}s`,
      summary: `List ${labels.title.toLowerCase()}`,
      description: `One page of the organization's ${labels.title.toLowerCase()}, in the order created_at, then id.`,
      request: { query: v1Query },
      responses: { 200: jsonResponse(list, 'One page of the list.'), ...queryErrors() },
    });
    registerV1Operation(registry, {
      method: 'get',
      path: `${v1Path}/{${idParameter}}`,
      operationId: `get${resourceId}`,
      summary: `Get one ${labels.resource.toLowerCase()}`,
      request: { params: z.object({ [idParameter]: uuidSchema.meta({ description: `The ${labels.noun}'s id.` }) }) },
      responses: {
        200: jsonResponse(item, `The ${labels.noun}.`),
        400: errorResponse(`The ${idParameter} is not a UUID.`),
        404: errorResponse(`No ${labels.noun} has this id in the key's organization (an id of another organization's included).`),
      },
    });
  }
}

/**
 * The OpenAPI 3.1 document of the v1 API, generated from the zod schemas that validate its
 * requests and responses; `extraRoutes` are the operations other modules add under /v1 (the
 * agent configuration download).
 */
export function buildV1OpenApiDocument(extraRoutes: OpenApiRouteRegistrar[] = []) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', apiKeySecurityScheme.name, apiKeySecurityScheme.scheme);
  registerCollections(registry);
  for (const register of extraRoutes) register(registry);

  registry.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'checkHealth',
    summary: 'Check the health of the public API',
    description: 'Needs no key and tells nothing about the organizations.',
    security: [],
    responses: {
      200: jsonResponse(z.object({ status: z.literal('ok') }), 'The store answers.'),
      ...guardAndServerErrors,
      503: errorResponse('The store does not answer.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'Get this OpenAPI document',
    security: [],
    responses: { 200: jsonResponse(openApiDocumentSchema, 'This document.'), ...guardAndServerErrors },
  });

  return generateDocument(registry, {
    title: 'Remediation Inventory API',
    description:
      'The v1 Remediation Inventory API served by Remediation Console on a loopback port. ' +
      'Lists page with limit (1 to 100, default 50) and offset (0 to 2^53 − 1, default 0; past the end, an empty page with the total) in the default order created_at, then id. ' +
      'Every error body is {"error": "<message>"}. updatedSince is an extension for incremental sync.',
  });
}
