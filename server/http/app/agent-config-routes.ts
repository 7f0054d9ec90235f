import express from 'express';
import { agentConfigQuerySchema } from '../../../contracts/agent-config.js';
import type { Store } from '../../store/store.js';
import { type AgentConfigContext, agentConfigDownload } from '../agent-config-download.js';
import { agentConfigAnswers } from '../openapi/agent-config-answers.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import type { OpenApiRouteRegistrar } from '../openapi/responses.js';
import { organizationOf } from './organization-param.js';

/**
 * `GET /app/orgs/:slug/agent-config?platform=&profile=`: the signed file of `GET /v1/agent/config`
 * for any organization, without its API key; the same query, errors and file.
 */
export function agentConfigRoutes(store: Store, context: AgentConfigContext): express.Router {
  const router = express.Router({ mergeParams: true });
  router.get('/agent-config', async (req, res) => {
    const { body, headers } = await agentConfigDownload(store, context, organizationOf(res), req.originalUrl);
    res.set(headers).send(body);
  });
  return router;
}

/** {@link agentConfigRoutes} in the /app OpenAPI document. */
export const agentConfigOperations: OpenApiRouteRegistrar = (registry) =>
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/agent-config',
    operationId: 'downloadConsoleAgentConfig',
    summary: 'Download a signed agent configuration file',
    description: 'The file of downloadAgentConfig in the v1 API, for any organization, without its API key.',
    tag: 'Agent configuration',
    request: { query: agentConfigQuerySchema },
    responses: agentConfigAnswers,
  });
