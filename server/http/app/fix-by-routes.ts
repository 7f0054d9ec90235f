import express from 'express';
import { fieldErrorSchema } from '../../../contracts/common.js';
import { fixByChangeListSchema, fixBySettingsBodySchema, fixBySettingsSchema, fixByChangesKept, fixBySummarySchema } from '../../../contracts/console/fix-by.js';
import { fixBySummary } from '../../store/console/fix-by-summary.js';
import { settingsChangeCause } from '../../store/ssvc/fix-by-changes.js';
import { fixBySettingsAnswer } from '../../store/ssvc/fix-by-settings.js';
import type { Store } from '../../store/store.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { jsonBody, parsedBody } from './json-body.js';
import { organizationOf } from './organization-param.js';

/** The largest body `PUT /app/orgs/:slug/fix-by-settings` reads: a policy and up to 32 tags. */
const settingsBodyLimit = '8kb';

/**
 * An organization's fix-by settings (`/fix-by-settings`: its deadline policy, exposure tags and
 * what unknown counts as; read, replaced) and the findings due soon (`/fix-by-summary`), under
 * `/app/orgs/:slug`. The settings are a local record of the organization, a write of
 * `deadline-policies`, kept across syncs.
 */
export function fixByRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/fix-by-settings', (_req, res) => {
    res.json(fixBySettingsAnswer(store.fixBy.settings.get(organizationOf(res).rowId)));
  });

  router.put('/fix-by-settings', jsonBody(settingsBodyLimit), async (req, res) => {
    const body = parsedBody(req, res, fixBySettingsBodySchema, 'the fix-by settings');
    if (!body) return;
    const org = organizationOf(res).rowId;
    res.json(fixBySettingsAnswer(await store.fixBy.recording(org, settingsChangeCause(body), () => store.fixBy.settings.set(org, body))));
  });

  router.get('/fix-by-changes', async (_req, res) => {
    const org = organizationOf(res).rowId;
    // A change is recorded after its write answered: the feed answers once those written before this read are in it.
    await store.fixBy.recorded(org);
    res.json({ data: store.fixBy.changes.list(org) });
  });

  router.get('/fix-by-summary', async (_req, res) => {
    res.json(await fixBySummary(store, organizationOf(res).rowId));
  });

  return router;
}

/** {@link fixByRoutes} in the /app OpenAPI document. */
export const fixByOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/fix-by-settings',
    operationId: 'getFixBySettings',
    summary: "Get the organization's deadline policy and fix-by settings",
    description: 'The deadline policy (`severity-days`, `bod-26-04`, `kev-due-date`), the tags that mean "publicly exposed", and what an input with no data counts as; the defaults until the organization saves its own.',
    tag: 'Deadlines',
    responses: { 200: jsonResponse(fixBySettingsSchema, 'The settings.') },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/fix-by-settings',
    operationId: 'updateFixBySettings',
    summary: "Replace the organization's deadline policy and fix-by settings",
    description: "Every key is given. Outcomes and dates follow at once (no recomputation is asked for). Kept here, across syncs; /v1 never shows it.",
    tag: 'Deadlines',
    request: { body: { required: true, content: { 'application/json': { schema: fixBySettingsBodySchema } } } },
    responses: {
      200: jsonResponse(fixBySettingsSchema, 'The settings, saved.'),
      400: jsonResponse(fieldErrorSchema, "The body is not JSON, or not the settings: each field's issue is listed, and nothing is saved."),
      413: errorResponse(`The body is larger than ${settingsBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/fix-by-changes',
    operationId: 'listFixByChanges',
    summary: 'List what each change of tags, criticality, tag rules or settings did to the fix-by dates',
    description: `The what-if in the open: each write of endpoint context or fix-by settings that changed an open finding's outcome, decision or date, with its cause, the findings it changed and how their outcomes moved; the newest first, the last ${fixByChangesKept} kept.`,
    tag: 'Deadlines',
    responses: { 200: jsonResponse(fixByChangeListSchema, 'The changes.') },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/fix-by-summary',
    operationId: 'getFixBySummary',
    summary: 'Count the open findings due in the next 3, 14 and 60 days',
    description: "Under the fix-by dates (BOD 26-04's outcomes on each finding's endpoint): overdue, due within 3, 14 and 60 days, and those that can wait for the next upgrade; excepted findings left out.",
    tag: 'Deadlines',
    responses: { 200: jsonResponse(fixBySummarySchema, 'The counts.') },
  });
};
