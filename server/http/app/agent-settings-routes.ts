import express from 'express';
import { agentConfigQuerySchema, checkPlatformProfile } from '../../../contracts/agent-config.js';
import { fieldErrorSchema } from '../../../contracts/common.js';
import { agentConfigPreviewSchema, agentSettingsSchema, updateAgentSettingsBodySchema } from '../../../contracts/console/agent-settings.js';
import { previewAgentConfig } from '../../organizations/agent-config-preview.js';
import { AgentSettingsFieldsError, readAgentSettings, updateAgentSettings } from '../../organizations/manage-agent-settings.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { jsonBody, jsonObjectSchema, parsedBody, sendFieldIssues } from './json-body.js';
import { organizationOf } from './organization-param.js';

/** The largest body `PUT /app/orgs/:slug/agent-settings` reads: a URL and two identifiers. */
const settingsBodyLimit = '8kb';

/**
 * An organization's agent settings (`/agent-settings`: read, updated) and what its agent
 * configuration files will hold (`/agent-config/preview`), under `/app/orgs/:slug`. The
 * settings are a local record of the organization (a write of `agent-settings`), kept across
 * syncs; /v1 never shows them.
 */
export function agentSettingsRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/agent-settings', (_req, res) => {
    res.json(readAgentSettings(store, organizationOf(res)));
  });

  // The body's fields are checked by manage-agent-settings.ts, as the CLI's are.
  router.put('/agent-settings', jsonBody(settingsBodyLimit), (req, res) => {
    const body = parsedBody(req, res, jsonObjectSchema, 'the agent settings');
    if (!body) return;
    try {
      res.json(updateAgentSettings(store, organizationOf(res), body));
    } catch (error) {
      if (!(error instanceof AgentSettingsFieldsError)) throw error;
      sendFieldIssues(res, error.issues);
    }
  });

  router.get('/agent-config/preview', (req, res) => {
    const query = parseQuery(req, agentConfigQuerySchema);
    const invalidCombination = checkPlatformProfile(query.platform, query.profile);
    if (invalidCombination) throw new HttpError(400, `Invalid platform/profile combination: ${invalidCombination}`);
    res.json(previewAgentConfig(store, organizationOf(res), query));
  });

  return router;
}

/** {@link agentSettingsRoutes} in the /app OpenAPI document. */
export const agentSettingsOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/agent-settings',
    operationId: 'getAgentSettings',
    summary: "Get the organization's agent settings",
    description:
      'The URL agents reach, the Team ID and bundle id of the macOS agent, what its agent configuration files need that is not set yet (`missing`), and warnings. ' +
      'Kept here, across syncs; /v1 never shows them.',
    tag: 'Agent configuration',
    responses: { 200: jsonResponse(agentSettingsSchema, 'The settings.') },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/agent-settings',
    operationId: 'updateAgentSettings',
    summary: "Update the organization's agent settings",
    description:
      'Each given field replaces its value (null or an empty string clears it; a cleared bundle id is the default); an absent field keeps its value. ' +
      'The server URL is https, or http for a host that is not loopback (with a warning); a loopback address only with `allowLoopback` (tests). ' +
      'The Team ID is 10 characters A–Z and 0–9; the bundle id is reverse-DNS.',
    tag: 'Agent configuration',
    request: { body: { required: true, content: { 'application/json': { schema: updateAgentSettingsBodySchema } } } },
    responses: {
      200: jsonResponse(agentSettingsSchema, 'The settings, saved.'),
      400: jsonResponse(fieldErrorSchema, "The body is not JSON, or a value is refused: each field's issue is listed, and nothing is saved."),
      413: errorResponse(`The body is larger than ${settingsBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/agent-config/preview',
    operationId: 'previewAgentConfig',
    summary: 'Preview what an agent configuration file will hold',
    description:
      'For a platform and profile: the server URL, organization, Team ID and bundle id it carries, its payloads or entries, whether the enrollment secret is inside, ' +
      'whether it needs a user-approved MDM, and what must be set before it can be made. A replica answers `source: remote`: its file is its remote tenant\'s.',
    tag: 'Agent configuration',
    request: { query: agentConfigQuerySchema },
    responses: {
      200: jsonResponse(agentConfigPreviewSchema, 'What the file will hold.'),
      ...queryErrors('platform is missing or invalid, profile is invalid, or the profile is an MDM profile and the platform is not macos.'),
    },
  });
};
