import { produceAgentConfig } from '../../organizations/produce-agent-config.js';
import { agentConfigQuerySchema, checkPlatformProfile } from '../../../contracts/agent-config.js';
import type { Sealer } from '../../secrets/sealer.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { agentConfigAnswers } from '../openapi/agent-config-answers.js';
import type { OpenApiRouteRegistrar } from '../openapi/responses.js';
import { registerV1Operation } from '../openapi/v1-operations.js';
import { parseUrlQuery } from '../query-parameters.js';
import type { V1Extension } from './v1-routes.js';

/** What the agent configuration download needs. */
export interface AgentConfigRouteContext {
  store: Store;
  sealer: Sealer;
  /** The URL agents are told to reach: the server's own base URL. */
  serverUrl: () => string;
  log: (message: string, error: unknown) => void;
}

/** Content-Disposition for a generated name: quoted, with nothing that could break out of the quotes. */
function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;
}

/**
 * `GET /v1/agent/config` (specification 4.9, DESIGN section 6): after the key, 400 for the
 * query, 400 for an MDM profile on another platform, 409 without an enrollment secret, 500 when
 * signing fails, 502 when a replica's remote cannot be reached.
 */
export function agentConfigRoute(context: AgentConfigRouteContext): V1Extension {
  return {
    path: '/v1/agent/config',
    answer: async ({ url, organization }) => {
      const query = parseUrlQuery(url, agentConfigQuerySchema);
      const invalidCombination = checkPlatformProfile(query.platform, query.profile);
      if (invalidCombination) throw new HttpError(400, `Invalid platform/profile combination: ${invalidCombination}`);
      const outcome = await produceAgentConfig(context.store, context.sealer, organization, query, {
        serverUrl: context.serverUrl(),
        log: context.log,
      });
      if (!outcome.ok) throw new HttpError(outcome.status, outcome.message);
      return { body: outcome.bytes, headers: { 'Content-Type': outcome.contentType, 'Content-Disposition': attachment(outcome.filename) } };
    },
    openapi: agentConfigOperation,
  };
}

export const agentConfigOperation: OpenApiRouteRegistrar = (registry) =>
  registerV1Operation(registry, {
    method: 'get',
    path: '/v1/agent/config',
    operationId: 'downloadAgentConfig',
    summary: 'Download a signed agent configuration file',
    description:
      "The file is made for the key's organization; a replica organization's is its remote tenant's file, whose error answers are passed on.",
    request: { query: agentConfigQuerySchema },
    responses: agentConfigAnswers,
  });
