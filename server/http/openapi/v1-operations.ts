import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { type Responses, errorResponse, guardAndServerErrors, mergeResponses } from './responses.js';

/** The security scheme of /v1: the organization's API key as a bearer token. */
export const apiKeySecurityScheme = {
  name: 'bearer',
  scheme: { type: 'http', scheme: 'bearer', description: "An API key of the organization: the key decides whose data is read." },
} as const;

/** The answer of a missing or unknown key, checked before anything else about the request. */
const missingKey: Responses = {
  401: {
    ...errorResponse('The API key is missing or not valid.'),
    headers: { 'WWW-Authenticate': { description: 'Bearer realm="remediation-inventory"', schema: { type: 'string' } } },
  },
};

/** An operation of /v1 in the document, with the API key's security and the 401, 421 and 500 every such operation may answer. */
export function registerV1Operation(registry: OpenAPIRegistry, route: Omit<RouteConfig, 'responses' | 'security'> & { responses: Responses }): void {
  registry.registerPath({
    ...route,
    security: [{ [apiKeySecurityScheme.name]: [] }],
    responses: mergeResponses(route.responses, missingKey, guardAndServerErrors),
  });
}
