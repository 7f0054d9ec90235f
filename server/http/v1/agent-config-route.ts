import { agentConfigQuerySchema } from '../../../contracts/agent-config.js';
import type { Store } from '../../store/store.js';
import { type AgentConfigContext, agentConfigDownload } from '../agent-config-download.js';
import { agentConfigAnswers } from '../openapi/agent-config-answers.js';
import type { OpenApiRouteRegistrar } from '../openapi/responses.js';
import { registerV1Operation } from '../openapi/v1-operations.js';
import type { V1Extension } from './v1-routes.js';

/** `GET /v1/agent/config`, after the key: the download of agent-config-download.ts. */
export function agentConfigRoute({ store, ...context }: AgentConfigContext & { store: Store }): V1Extension {
  return {
    path: '/v1/agent/config',
    answer: ({ url, organization }) => agentConfigDownload(store, context, organization, url),
    openapi: agentConfigOperation,
  };
}

/** `GET /v1/agent/config` in the v1 OpenAPI document. */
export const agentConfigOperation: OpenApiRouteRegistrar = (registry) =>
  registerV1Operation(registry, {
    method: 'get',
    path: '/v1/agent/config',
    operationId: 'downloadAgentConfig',
    summary: 'Download a signed agent configuration file',
    description:
      "The file is made for the key's organization; a replica organization's is its remote tenant's file, and its remote's failure to give one is a 502 in this server's words.",
    request: { query: agentConfigQuerySchema },
    responses: agentConfigAnswers,
  });
