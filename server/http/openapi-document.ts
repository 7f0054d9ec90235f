import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { collectionNames, collections } from '../../contracts/collections.js';
import { errorSchema } from '../../contracts/common.js';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

const errors = {
  400: json(errorSchema, 'Invalid identifier format or query parameter.'),
  401: json(errorSchema, 'Missing or invalid API key.'),
  500: json(errorSchema, 'Internal server error.'),
};

/** Registers routes that live in other modules, such as the agent configuration download. */
export type OpenApiRouteRegistrar = (registry: OpenAPIRegistry, shared: { errors: typeof errors }) => void;

/**
 * The OpenAPI 3.1 document of the v1 API, generated from the zod schemas that validate its
 * requests and responses.
 */
export function buildOpenApiDocument(extraRoutes: OpenApiRouteRegistrar[] = []) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  for (const name of collectionNames) {
    const { v1Path, idParameter, labels, item, v1Query, list, resourceId } = collections[name];
    registry.registerPath({
      method: 'get',
      path: v1Path,
      operationId: `list${resourceId}s`,
      summary: `List ${labels.title.toLowerCase()}`,
      security: [{ bearer: [] }],
      request: { query: v1Query },
      responses: { 200: json(list, 'One page of the list.'), ...errors },
    });
    registry.registerPath({
      method: 'get',
      path: `${v1Path}/{${idParameter}}`,
      operationId: `get${resourceId}`,
      summary: `Get one ${labels.noun}`,
      security: [{ bearer: [] }],
      request: { params: z.object({ [idParameter]: z.string().meta({ format: 'uuid' }) }) },
      responses: { 200: json(item, `One ${labels.noun}.`), ...errors, 404: json(errorSchema, 'No such resource in the organization.') },
    });
  }
  for (const register of extraRoutes) register(registry, { errors });

  registry.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'checkHealth',
    security: [],
    summary: 'Check the health of the public API',
    responses: {
      200: json(z.object({ status: z.literal('ok') }), 'The store answers.'),
      503: json(errorSchema, 'The store does not answer.'),
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Remediation Inventory API',
      version: '1.0.0',
      description:
        'The v1 Remediation Inventory API served by Remediation Console on a loopback port. ' +
        'Lists page with limit (1 to 100, default 50) and offset (default 0) in the default order created_at, then id. ' +
        'Every error body is {"error": "<message>"}. updatedSince is an extension for incremental sync.',
    },
    servers: [{ url: '/' }],
  });
}
