import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { errorSchema } from '../schemas/common.js';
import { endpointListSchema, endpointSchema } from '../schemas/endpoint.js';
import {
  endpointListQuerySchema,
  remediationTargetListQuerySchema,
  scopeListQuerySchema,
  vulnerabilityFindingListQuerySchema,
} from '../schemas/list-queries.js';
import { remediationTargetListSchema, remediationTargetSchema } from '../schemas/remediation-target.js';
import { scopeListSchema, scopeSchema } from '../schemas/scope.js';
import { vulnerabilityFindingListSchema, vulnerabilityFindingSchema } from '../schemas/vulnerability-finding.js';
import { z } from '../schemas/zod.js';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

const errors = {
  400: json(errorSchema, 'Invalid identifier format or query parameter.'),
  401: json(errorSchema, 'Missing or invalid API key.'),
  500: json(errorSchema, 'Internal server error.'),
};

/** Registers routes that live in other modules, such as the agent configuration download. */
export type OpenApiRouteRegistrar = (registry: OpenAPIRegistry, shared: { errors: typeof errors }) => void;

function registerList(
  registry: OpenAPIRegistry,
  path: string,
  summary: string,
  query: z.ZodObject,
  envelope: z.ZodType,
) {
  registry.registerPath({
    method: 'get',
    path,
    summary,
    security: [{ bearer: [] }],
    request: { query },
    responses: { 200: json(envelope, 'One page of the list.'), ...errors },
  });
}

function registerGet(registry: OpenAPIRegistry, path: string, parameter: string, summary: string, item: z.ZodType) {
  registry.registerPath({
    method: 'get',
    path,
    summary,
    security: [{ bearer: [] }],
    request: { params: z.object({ [parameter]: z.string().openapi({ format: 'uuid' }) }) },
    responses: { 200: json(item, summary), ...errors, 404: json(errorSchema, 'No such resource in the organization.') },
  });
}

/**
 * The OpenAPI 3.1 document of the v1 API, generated from the zod schemas that validate its
 * requests and responses.
 */
export function buildOpenApiDocument(extraRoutes: OpenApiRouteRegistrar[] = []) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  registerList(registry, '/v1/endpoints', 'List endpoints', endpointListQuerySchema, endpointListSchema);
  registerGet(registry, '/v1/endpoints/{endpointId}', 'endpointId', 'Get one endpoint', endpointSchema);
  registerList(registry, '/v1/remediation-targets', 'List remediation targets', remediationTargetListQuerySchema, remediationTargetListSchema);
  registerGet(registry, '/v1/remediation-targets/{targetId}', 'targetId', 'Get one remediation target', remediationTargetSchema);
  registerList(registry, '/v1/scopes', 'List scopes', scopeListQuerySchema, scopeListSchema);
  registerGet(registry, '/v1/scopes/{scopeId}', 'scopeId', 'Get one scope', scopeSchema);
  registerList(
    registry,
    '/v1/vulnerability-findings',
    'List vulnerability findings',
    vulnerabilityFindingListQuerySchema,
    vulnerabilityFindingListSchema,
  );
  registerGet(
    registry,
    '/v1/vulnerability-findings/{findingId}',
    'findingId',
    'Get one vulnerability finding',
    vulnerabilityFindingSchema,
  );
  for (const register of extraRoutes) register(registry, { errors });

  registry.registerPath({
    method: 'get',
    path: '/health',
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
