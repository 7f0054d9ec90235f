import express from 'express';
import { produceAgentConfig } from '../../organizations/produce-agent-config.js';
import { agentConfigQuerySchema, checkPlatformProfile } from '../../../contracts/agent-config.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { agentConfigAnswers } from '../openapi/agent-config-answers.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import type { OpenApiRouteRegistrar } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { organizationOf } from './organization-param.js';

/** What the console's agent configuration download needs. */
export interface AgentConfigContext {
  sealer: Sealer;
  /** The URL agents are told to reach: the server's own base URL. */
  serverUrl: () => string;
  log: (message: string, error: unknown) => void;
}

/**
 * `GET /app/orgs/:slug/agent-config?platform=&profile=`: the signed file of `GET /v1/agent/config`
 * for any organization, without its API key; the same query, errors and file.
 */
export function agentConfigRoutes(store: Store, context: AgentConfigContext): express.Router {
  const router = express.Router({ mergeParams: true });
  router.get('/agent-config', async (req, res) => {
    const query = parseQuery(req, agentConfigQuerySchema);
    const invalidCombination = checkPlatformProfile(query.platform, query.profile);
    if (invalidCombination) throw new HttpError(400, `Invalid platform/profile combination: ${invalidCombination}`);
    const outcome = await produceAgentConfig(store, context.sealer, organizationOf(res), query, {
      serverUrl: context.serverUrl(),
      log: context.log,
    });
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.message);
    const filename = outcome.filename.replace(/[^\w.-]/g, '_');
    res.set({ 'Content-Type': outcome.contentType, 'Content-Disposition': `attachment; filename="${filename}"` }).send(outcome.bytes);
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
