import express from 'express';
import * as z from 'zod';
import { fieldErrorSchema } from '../../../contracts/common.js';
import { epssHistorySchema } from '../../../contracts/console/threat-intel.js';
import { intelChangeListSchema, intelChangesKept, intelSettingsSchema, kevAgreementSchema } from '../../../contracts/console/threat-intel-changes.js';
import { cveKey } from '../../store/intel/cve-key.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerConsoleOperation, registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { jsonBody, parsedBody } from './json-body.js';
import { organizationOf } from './organization-param.js';

const cveIdParamSchema = z
  .string()
  .regex(/^CVE-\d{4}-(\d{4}|[1-9]\d{4,8})$/)
  .meta({ example: 'CVE-2021-44228', description: 'A CVE identifier as MITRE assigns them, CVE-YYYY-NNNN (lower case is read too).' });

/**
 * A CVE's EPSS history and the intelligence settings, under `/app/intel` (the installation's):
 * `GET /intel/epss/:cveId`, `GET` and `PUT /intel/settings`.
 */
export function threatIntelHistoryRoutes(store: Store): express.Router {
  const router = express.Router();
  router.get('/intel/epss/:cveId', (req, res) => {
    const cveId = String(req.params.cveId);
    if (cveKey(cveId) === undefined) throw new HttpError(400, `Invalid path parameter "cveId": "${cveId.slice(0, 40)}" is not a CVE identifier (CVE-YYYY-NNNN).`);
    res.json(store.intel.figures.epssHistory(cveId));
  });
  router.get('/intel/settings', (_req, res) => {
    res.json(store.intel.changes.settings());
  });
  router.put('/intel/settings', jsonBody('1kb'), (req, res) => {
    const settings = parsedBody(req, res, intelSettingsSchema.strict(), 'the intelligence settings');
    if (!settings) return;
    store.intel.changes.saveSettings(settings);
    res.json(store.intel.changes.settings());
  });
  return router;
}

/** What the imports changed for the organization and where its `is_kev` disagrees with the catalogs, under `/app/orgs/:slug/intel`. */
export function organizationIntelRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  router.get('/intel/changes', (_req, res) => {
    res.json({ data: store.intel.changes.list(organizationOf(res).rowId) });
  });
  router.get('/intel/kev-agreement', (_req, res) => {
    res.json(store.intel.figures.kevAgreement(organizationOf(res).rowId));
  });
  return router;
}

/** {@link threatIntelHistoryRoutes} and {@link organizationIntelRoutes} in the /app OpenAPI document. */
export const threatIntelHistoryOperations: OpenApiRouteRegistrar = (registry) => {
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/intel/epss/:cveId',
    operationId: 'getEpssHistory',
    summary: "Get a CVE's EPSS history and its 7- and 30-day change",
    description:
      'The figures of the CVE in each kept EPSS import (the last 30, for the CVEs some organization names), the newest first, each with its score date and model; ' +
      'and the change over 7 and 30 days: the newest import\'s score less that of the newest import at least that many days older. ' +
      'Never computed across model versions: the change is then null and `gap` says why (as when no file is imported, the CVE is not scored, or no import is old enough).',
    tag: 'Threat intelligence',
    request: { params: z.object({ cveId: cveIdParamSchema }) },
    responses: { 200: jsonResponse(epssHistorySchema, 'The history.'), 400: errorResponse('The cveId is not a CVE identifier.') },
  });
  registerConsoleOperation(registry, {
    method: 'get',
    path: '/intel/settings',
    operationId: 'getIntelSettings',
    summary: 'Get the intelligence settings',
    description: 'The EPSS threshold whose crossings each EPSS import records in the organizations\' intelligence changes.',
    tag: 'Threat intelligence',
    responses: { 200: jsonResponse(intelSettingsSchema, 'The settings.') },
  });
  registerConsoleOperation(registry, {
    method: 'put',
    path: '/intel/settings',
    operationId: 'updateIntelSettings',
    summary: 'Update the intelligence settings',
    description: 'Kept here, across syncs. Applies to the imports after it.',
    tag: 'Threat intelligence',
    request: { body: { required: true, content: { 'application/json': { schema: intelSettingsSchema, example: { epss_threshold: 0.1, epss_rise: 0.05 } } } } },
    responses: {
      200: jsonResponse(intelSettingsSchema, 'The settings, saved.'),
      400: jsonResponse(fieldErrorSchema, 'The body is not JSON, or a value is refused: nothing is saved.'),
      413: errorResponse('The body is larger than 1 kB.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/intel/changes',
    operationId: 'listIntelChanges',
    summary: 'List what the intelligence imports changed for the organization',
    description:
      `The last ${intelChangesKept} imports that changed something for the organization, newest first: the CVEs of its open findings newly listed in a KEV catalog, ` +
      'and those whose EPSS crossed the threshold (up or down), each with its endpoints and plan steps. The first file of a kind changes nothing (nothing to compare with).',
    tag: 'Threat intelligence',
    responses: { 200: jsonResponse(intelChangeListSchema, 'The changes.') },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/intel/kev-agreement',
    operationId: 'getKevAgreement',
    summary: "Where the remote's is_kev and the imported KEV catalogs disagree",
    description:
      "Over the current catalogs (a CVE is listed when any lists it): the organization's open findings the remote flags `is_kev` whose CVE no catalog lists, and those of listed CVEs it does not flag. " +
      'The findings list keeps the same findings with `kevNotListed=true` and `kevListedNotFlagged=true`.',
    tag: 'Threat intelligence',
    responses: { 200: jsonResponse(kevAgreementSchema, 'The counts, with the catalogs compared with.') },
  });
};
