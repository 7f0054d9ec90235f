import express from 'express';
import { fieldErrorSchema } from '../../../contracts/common.js';
import {
  type SlaPolicyAnswer,
  remediationPerformanceQuerySchema,
  remediationPerformanceSchema,
  slaPolicyBodySchema,
  slaPolicySchema,
} from '../../../contracts/console/deadlines.js';
import type { StoredSlaPolicy } from '../../store/remediation/sla-policies.js';
import type { Store } from '../../store/store.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { jsonBody, parsedBody } from './json-body.js';
import { organizationOf } from './organization-param.js';

/** The largest body `PUT /app/orgs/:slug/sla-policy` reads: six numbers. */
const policyBodyLimit = '4kb';

/** A stored policy as the console API answers it. */
function policyAnswer({ policy, updatedAt }: StoredSlaPolicy): SlaPolicyAnswer {
  return { ...policy, updated_at: updatedAt };
}

/**
 * An organization's remediation deadlines (`/sla-policy`: read, replaced) and how its findings
 * keep to them (`/remediation-performance`), under `/app/orgs/:slug`. The policy is a local
 * record of the organization, a write of `deadline-policies` (the data's caches stay; the
 * figures depending on it are keyed by it) and kept across syncs.
 */
export function deadlineRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/sla-policy', (_req, res) => {
    res.json(policyAnswer(store.deadlines.policies.get(organizationOf(res).rowId)));
  });

  router.put('/sla-policy', jsonBody(policyBodyLimit), (req, res) => {
    const body = parsedBody(req, res, slaPolicyBodySchema, 'the policy');
    if (!body) return;
    const org = organizationOf(res).rowId;
    res.json(policyAnswer(store.deadlines.policies.set(org, body)));
  });

  router.get('/remediation-performance', async (req, res) => {
    const query = parseQuery(req, remediationPerformanceQuerySchema);
    res.json(await store.deadlines.performance(organizationOf(res).rowId, undefined, query));
  });

  return router;
}

/** {@link deadlineRoutes} in the /app OpenAPI document. */
export const deadlineOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/sla-policy',
    operationId: 'getSlaPolicy',
    summary: "Get the organization's remediation deadlines",
    description: 'Days to remediate per severity, and for KEV findings when sooner; the defaults until the organization saves its own.',
    tag: 'Deadlines',
    responses: { 200: jsonResponse(slaPolicySchema, 'The policy.') },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/sla-policy',
    operationId: 'updateSlaPolicy',
    summary: "Replace the organization's remediation deadlines",
    description: 'Every key is given, a whole number of days from 1 to 3650 or null for no deadline. Kept here, across syncs; /v1 never shows it.',
    tag: 'Deadlines',
    request: { body: { required: true, content: { 'application/json': { schema: slaPolicyBodySchema } } } },
    responses: {
      200: jsonResponse(slaPolicySchema, 'The policy, saved.'),
      400: jsonResponse(fieldErrorSchema, "The body is not JSON, or not the policy: each field's issue is listed, and nothing is saved."),
      413: errorResponse(`The body is larger than ${policyBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/remediation-performance',
    operationId: 'getRemediationPerformance',
    summary: 'Get how the organization keeps to its remediation deadlines',
    description:
      'Per severity: open findings, the overdue ones (exceptions left out), their median age; the median and mean days to remediate and the share remediated in time; ' +
      'the same per month for the last 12 months, with what was open and overdue at each month end; open findings by age; open, overdue and median age per tag. As of now, to the minute. ' +
      'With `tag` or `criticality`, the figures of the findings of the endpoints they keep.',
    tag: 'Deadlines',
    request: { query: remediationPerformanceQuerySchema },
    responses: { 200: jsonResponse(remediationPerformanceSchema, 'The figures.'), ...queryErrors() },
  });
};
