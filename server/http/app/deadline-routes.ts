import express from 'express';
import { type FieldErrorBody, type FieldIssue, fieldErrorSchema } from '../../../contracts/common.js';
import { type SlaPolicyAnswer, remediationPerformanceSchema, slaPolicyBodySchema, slaPolicySchema } from '../../../contracts/console/deadlines.js';
import type { StoredSlaPolicy } from '../../store/sla-policies.js';
import type { Store } from '../../store/store.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, jsonResponse } from '../openapi/responses.js';
import { organizationOf } from './organization-param.js';

/** The largest body `PUT /app/orgs/:slug/sla-policy` reads: six numbers. */
const policyBodyLimit = '4kb';

/** A stored policy as the console API answers it. */
function policyAnswer({ policy, updatedAt }: StoredSlaPolicy): SlaPolicyAnswer {
  return { ...policy, updated_at: updatedAt };
}

/** The 400 of a body that is not a policy, naming each field refused; nothing is saved. */
function sendIssues(res: express.Response, issues: FieldIssue[]): void {
  const first = issues[0]!;
  res.status(400).json({ error: `Invalid body field "${first.field}": ${first.message}`, issues } satisfies FieldErrorBody);
}

/**
 * An organization's remediation deadlines (`/sla-policy`: read, replaced) and how its findings
 * keep to them (`/remediation-performance`), under `/app/orgs/:slug`. The policy is a local
 * record of the organization, written with `recordsOnly` (the data's caches stay; the figures
 * depending on it are keyed by it) and kept across syncs.
 */
export function deadlineRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/sla-policy', (_req, res) => {
    res.json(policyAnswer(store.deadlines.policies.get(organizationOf(res).rowId)));
  });

  const readJson = express.json({ limit: policyBodyLimit });
  // A body that is not JSON is refused as one that is not the policy, with the same answer's shape.
  const policyBody: express.RequestHandler = (req, res, next) =>
    readJson(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type !== 'entity.parse.failed') return next(error);
      sendIssues(res, [{ field: 'body', message: 'is not JSON' }]);
    });

  router.put('/sla-policy', policyBody, (req, res) => {
    const body = slaPolicyBodySchema.safeParse(req.body);
    if (!body.success) {
      sendIssues(
        res,
        body.error.issues.map((issue) => ({
          field: issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue.path[0] ?? 'body'),
          message: issue.code === 'unrecognized_keys' ? 'is not a key of the policy' : issue.path.length ? issue.message : 'must be a JSON object of the policy',
        })),
      );
      return;
    }
    const org = organizationOf(res).rowId;
    res.json(policyAnswer(store.write(() => store.deadlines.policies.set(org, body.data), { recordsOnly: true })));
  });

  router.get('/remediation-performance', async (_req, res) => {
    res.json(await store.deadlines.performance(organizationOf(res).rowId));
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
      'the same per month for the last 12 months, with what was open and overdue at each month end; open findings by age. As of now, to the minute.',
    tag: 'Deadlines',
    responses: { 200: jsonResponse(remediationPerformanceSchema, 'The figures.') },
  });
};
