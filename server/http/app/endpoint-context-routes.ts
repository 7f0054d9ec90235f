import express from 'express';
import * as z from 'zod';
import { type ConsoleQuery, collectionSchemas } from '../../../contracts/collections.js';
import { type FieldIssue, fieldErrorSchema, uuidSchema } from '../../../contracts/common.js';
import {
  bulkUpdateEndpointContextBodySchema,
  bulkUpdateEndpointContextResultSchema,
  createTagRuleBodySchema,
  endpointContextImportResultSchema,
  endpointContextSchema,
  endpointTagListResponseSchema,
  tagRuleListSchema,
  tagRuleSchema,
  updateEndpointContextBodySchema,
  updateTagRuleBodySchema,
} from '../../../contracts/console/endpoint-context.js';
import { EndpointContextLineError, EndpointContextRuleError, TagRuleConditionError } from '../../store/context/endpoint-context.js';
import { TimeSlices } from '../../store/derived/time-slices.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, fileResponse, jsonResponse, mergeResponses } from '../openapi/responses.js';
import { parseUrlQuery } from '../query-parameters.js';
import { endpointContextCsv, maxImportLines, parseEndpointContextCsv } from './endpoint-context-csv.js';
import { jsonBody, parsedBody, sendFieldIssues } from './json-body.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** The largest body of an edit, a bulk change or a rule. */
const editBodyLimit = '64kb';
/** The largest file an import reads: 100,000 lines of an id, a hostname, a few tags. */
const importBodyLimit = '16mb';

/** Answers a rule of endpoint context that a body breaks as 400; rethrows anything else. */
function answerRefusal(res: express.Response, error: unknown): void {
  if (error instanceof TagRuleConditionError) return sendFieldIssues(res, [{ field: error.field, message: error.message }]);
  if (error instanceof EndpointContextRuleError || error instanceof EndpointContextLineError) throw new HttpError(400, error.message);
  throw error;
}

/**
 * The query of the endpoints list that a bulk change's `filter` gives (its filters and q; paging
 * and sort are ignored), or the field's issue: a parameter the list does not know, or a string
 * that is not percent-encoded, is refused, as it would otherwise select every endpoint.
 */
function endpointsFilter(filter: string): ConsoleQuery<'endpoints'> | FieldIssue {
  try {
    return parseUrlQuery(`?${filter.replace(/^\?/, '')}`, collectionSchemas.endpoints.console, 'refuse');
  } catch (error) {
    if (error instanceof HttpError) return { field: 'filter', message: error.message };
    throw error;
  }
}

/** The ids of the endpoints the endpoints list shows for a query. */
async function selectedEndpoints(store: Store, orgRowId: number, query: ConsoleQuery<'endpoints'>): Promise<string[]> {
  const ids: string[] = [];
  // Turns between chunks: read in one go, 20,000 ids held the thread that answers 60 ms.
  const slices = new TimeSlices(() => undefined);
  for await (const chunk of store.console.listAllIds(orgRowId, 'endpoints', { ...query, sort: { key: 'created_at', descending: false } }, undefined, 1000)) {
    ids.push(...chunk);
    await slices.pause();
  }
  return ids;
}

/** A change of tags and criticality in words, as the fix-by change feed names its cause. */
function contextChangeText(change: { tags?: string[]; add_tags?: string[]; remove_tags?: string[]; criticality?: string }): string {
  const parts = [
    change.tags && `tags set to ${change.tags.join(', ') || 'none'}`,
    change.add_tags?.length && `tags added ${change.add_tags.join(', ')}`,
    change.remove_tags?.length && `tags removed ${change.remove_tags.join(', ')}`,
    change.criticality && `criticality ${change.criticality}`,
  ];
  return parts.filter(Boolean).join('; ');
}

/**
 * An organization's endpoint context under `/app/orgs/:slug` (issue 28): its tags with counts,
 * one endpoint's tags and criticality, a bulk change of the endpoints a list filter selects,
 * the CSV file, and tag rules. Local records, kept across syncs, never shown by /v1; each write
 * drops what is derived from the data (figures, filters and coverage read tags and criticality).
 */
export function endpointContextRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });
  const context = store.endpointContext;

  router.get('/endpoint-tags', async (_req, res) => {
    res.json(await context.tagList(organizationOf(res).rowId));
  });

  router.get('/endpoints/:endpointId/context', async (req, res) => {
    const id = uuidParam(req, 'endpointId');
    const answer = await context.contextOf(organizationOf(res).rowId, id);
    if (!answer) throw new HttpError(404, `Endpoint ${id} not found`);
    res.json(answer);
  });

  router.put('/endpoints/:endpointId/context', jsonBody(editBodyLimit), async (req, res) => {
    const id = uuidParam(req, 'endpointId');
    const body = parsedBody(req, res, updateEndpointContextBodySchema, "the endpoint's context");
    if (!body) return;
    const org = organizationOf(res).rowId;
    const answer = await store.fixBy.recording(org, `endpoint ${id}: ${contextChangeText(body)}`, () => context.update(org, id, body));
    if (!answer) throw new HttpError(404, `Endpoint ${id} not found`);
    res.json(answer);
  });

  router.post('/endpoint-context/bulk', jsonBody(editBodyLimit), async (req, res) => {
    const body = parsedBody(req, res, bulkUpdateEndpointContextBodySchema, 'the bulk change');
    if (!body) return;
    const query = endpointsFilter(body.filter);
    if ('field' in query) return sendFieldIssues(res, [query]);
    const org = organizationOf(res).rowId;
    const ids = await selectedEndpoints(store, org, query);
    try {
      const cause = `bulk change of ${ids.length} endpoints (filter "${body.filter}"): ${contextChangeText(body)}`;
      res.json(await store.fixBy.recording(org, cause, () => context.bulkUpdate(org, ids, body)));
    } catch (error) {
      answerRefusal(res, error);
    }
  });

  router.get('/endpoint-context/export.csv', async (_req, res) => {
    const organization = organizationOf(res);
    const rows = await context.exportRows(organization.rowId);
    res
      .status(200)
      .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${organization.slug}-endpoint-context.csv"` })
      .send(endpointContextCsv(rows));
  });

  router.post('/endpoint-context/import', express.text({ type: () => true, limit: importBodyLimit }), async (req, res) => {
    const text = typeof req.body === 'string' ? req.body : '';
    try {
      const org = organizationOf(res).rowId;
      const lines = await parseEndpointContextCsv(text);
      res.json(await store.fixBy.recording(org, `endpoint context CSV imported (${lines.length} lines)`, () => context.importLines(org, lines)));
    } catch (error) {
      answerRefusal(res, error);
    }
  });

  router.get('/tag-rules', async (_req, res) => {
    res.json({ data: await context.listRules(organizationOf(res).rowId) });
  });

  router.post('/tag-rules', jsonBody(editBodyLimit), async (req, res) => {
    const body = parsedBody(req, res, createTagRuleBodySchema, 'the tag rule');
    if (!body) return;
    try {
      const org = organizationOf(res).rowId;
      res.status(201).json(await store.fixBy.recording(org, `tag rule created: tag ${body.tag}${body.note ? ` ('${body.note}')` : ''}`, () => context.createRule(org, body)));
    } catch (error) {
      answerRefusal(res, error);
    }
  });

  router.patch('/tag-rules/:ruleId', jsonBody(editBodyLimit), async (req, res) => {
    const id = uuidParam(req, 'ruleId');
    const body = parsedBody(req, res, updateTagRuleBodySchema, 'the tag rule');
    if (!body) return;
    try {
      const org = organizationOf(res).rowId;
      const rule = await store.fixBy.recording(org, `tag rule ${id} changed: ${Object.keys(body).join(', ')}`, () => context.updateRule(org, id, body));
      if (!rule) throw new HttpError(404, `Tag rule ${id} not found`);
      res.json(rule);
    } catch (error) {
      answerRefusal(res, error);
    }
  });

  router.delete('/tag-rules/:ruleId', async (req, res) => {
    const id = uuidParam(req, 'ruleId');
    const org = organizationOf(res).rowId;
    if (!(await store.fixBy.recording(org, `tag rule ${id} deleted`, () => context.deleteRule(org, id)))) throw new HttpError(404, `Tag rule ${id} not found`);
    res.status(204).end();
  });

  return router;
}

const endpointIdParam = { endpointId: uuidSchema.meta({ description: "The endpoint's /v1 id." }) };
const ruleIdParam = { ruleId: uuidSchema.meta({ description: "The tag rule's id." }) };
/** A JSON request body that the operation needs, with its example. */
const requiredBody = (schema: z.ZodType, example: unknown) => ({ body: { required: true, content: { 'application/json': { schema, example } } } });
const refused = (what: string) => ({ 400: jsonResponse(fieldErrorSchema, `${what}: a FieldError, whose message and \`issues\` name the field; nothing is stored.`) });
const tooLarge = { 413: errorResponse(`The body is larger than ${editBodyLimit}.`) };
const exampleRule = { tag: 'servers', conditions: [{ kind: 'hostname', pattern: 'srv-*' }, { kind: 'agent', has_agent: true }], note: 'Every server with an agent.' };
/** The CSV file in the document. */
const endpointContextCsvText = z.string().meta({
  description: 'RFC 4180 CSV, CRLF line ends: a header line (id, hostname, tags, criticality), then a line per endpoint.',
});
const exampleCsv = 'id,hostname,tags,criticality\r\n3f0c2a8e-6d1b-4c55-9a0e-2b7f1c9d4e10,,finance;internet-facing,high\r\n';

/** {@link endpointContextRoutes} in the /app OpenAPI document. */
export const endpointContextOperations: OpenApiRouteRegistrar = (registry) => {
  const tag = 'Endpoint context' as const;
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/endpoint-tags',
    operationId: 'listEndpointTags',
    summary: "List the organization's endpoint tags with counts",
    description: 'Every tag set on an endpoint or given by a rule, with the endpoints shown now that carry it; whether the organization has any tag at all; endpoints per criticality.',
    tag,
    responses: { 200: jsonResponse(endpointTagListResponseSchema, 'The tags.') },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/endpoints/:endpointId/context',
    operationId: 'getEndpointContext',
    summary: "Get an endpoint's tags and criticality",
    description: 'Its tags, each with where it comes from (set on it, or the rule that gives it), the tags set on it, and its criticality.',
    tag,
    params: endpointIdParam,
    responses: { 200: jsonResponse(endpointContextSchema, "The endpoint's context."), 400: errorResponse('The endpointId is not a UUID.'), 404: errorResponse('The organization shows no endpoint with this id.') },
  });
  registerOrganizationOperation(registry, {
    method: 'put',
    path: '/endpoints/:endpointId/context',
    operationId: 'updateEndpointContext',
    summary: "Set an endpoint's tags and criticality",
    description: 'What is given replaces what was set (tags: the tags set on it; rule tags stay). Kept here by endpoint id, across syncs, full ones included; /v1 never shows it.',
    tag,
    params: endpointIdParam,
    request: requiredBody(updateEndpointContextBodySchema, { tags: ['finance', 'laptop'], criticality: 'high' }),
    responses: {
      200: jsonResponse(endpointContextSchema, "The endpoint's context, saved."),
      ...mergeResponses({ 400: errorResponse('The endpointId is not a UUID.') }, refused('The body is not JSON, empty, or a tag or the criticality is invalid')),
      404: errorResponse('The organization shows no endpoint with this id.'),
      ...tooLarge,
    },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/endpoint-context/bulk',
    operationId: 'bulkUpdateEndpointContext',
    summary: 'Tag, untag or set the criticality of every endpoint a list filter selects',
    description:
      "`filter` is the endpoints list's query string (its filters and q; limit, offset and sort are ignored); every endpoint it selects gets `add_tags`, loses `remove_tags` (a rule that gives one still does) " +
      'and takes `criticality`, in one write of what changes. A parameter the list does not know (`osfamily=windows`), a value it refuses, or a string that is not ' +
      'percent-encoded (`%%%`) is refused with a 400 naming it, never read as no filter. ' +
      'Refused, with nothing written, when an endpoint would carry more than 32 tags.',
    tag,
    request: requiredBody(bulkUpdateEndpointContextBodySchema, { filter: 'osFamily=windows', add_tags: ['windows-fleet'], criticality: 'normal' }),
    responses: {
      200: jsonResponse(bulkUpdateEndpointContextResultSchema, 'How many endpoints the filter selected and how many changed.'),
      ...refused('The body is not JSON, a field is invalid, the filter names a parameter the endpoints list does not know, gives a value it refuses or is not percent-encoded, or an endpoint would carry more than 32 tags'),
      ...tooLarge,
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/endpoint-context/export.csv',
    operationId: 'exportEndpointContextCsv',
    summary: "Export the endpoints' tags and criticality as CSV",
    description:
      'One line per endpoint id with a tag or a criticality set (rule tags are not written: the rules give them), by hostname then id; ' +
      'an id the organization does not show now has no hostname. Columns id, hostname, tags (separated by ";"), criticality. Importing it gives the same file back.',
    tag,
    responses: { 200: fileResponse('text/csv', endpointContextCsvText, 'The file.') },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/endpoint-context/import',
    operationId: 'importEndpointContextCsv',
    summary: "Import endpoints' tags and criticality from CSV",
    description:
      'All of the file or none. A header line names the columns: `id` or `hostname` (both: the id decides), `tags` (separated by ";" or ","), `criticality`; other columns are ignored. ' +
      'Each line sets the tags and criticality of the endpoint of that id (one not synced yet is kept for when it is) or of every endpoint shown with that hostname; ' +
      `a column left out leaves that field as it is, an empty cell clears the tags or sets normal. At most ${maxImportLines} lines. The first problem is answered 400 naming its line, and nothing is stored.`,
    tag,
    request: { body: { required: true, content: { 'text/csv': { schema: endpointContextCsvText, example: exampleCsv } } } },
    responses: {
      200: jsonResponse(endpointContextImportResultSchema, 'How many lines, endpoints named, and endpoints changed.'),
      400: errorResponse('A line of the file is not valid (`line N: ...`), a hostname names no endpoint, or an endpoint is named twice; nothing is stored.'),
      413: errorResponse(`The file is larger than ${importBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/tag-rules',
    operationId: 'listTagRules',
    summary: "List the organization's tag rules",
    description: 'Oldest first, each with the endpoints shown now it tags. A rule tags every endpoint matching all its conditions at read time: an endpoint a sync brings is tagged with no write.',
    tag,
    responses: { 200: jsonResponse(tagRuleListSchema, 'The rules.') },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/tag-rules',
    operationId: 'createTagRule',
    summary: 'Create a tag rule',
    description: 'A tag, and conditions on hostname (glob), IP (CIDR), OS family, OS name (glob) or agent presence, all of which must hold.',
    tag,
    request: requiredBody(createTagRuleBodySchema, exampleRule),
    responses: {
      201: jsonResponse(tagRuleSchema, 'The rule.'),
      ...refused('The body is not JSON, a field is invalid, a CIDR does not parse, a glob holds more than 16 `*` or 32 alternatives, or the organization holds 200 rules'),
      ...tooLarge,
    },
  });
  registerOrganizationOperation(registry, {
    method: 'patch',
    path: '/tag-rules/:ruleId',
    operationId: 'updateTagRule',
    summary: "Change a tag rule's tag, conditions or note",
    tag,
    params: ruleIdParam,
    request: requiredBody(updateTagRuleBodySchema, { note: 'Servers, from the naming convention.' }),
    responses: {
      200: jsonResponse(tagRuleSchema, 'The rule, changed.'),
      ...mergeResponses({ 400: errorResponse('The ruleId is not a UUID.') }, refused('The body is not JSON, empty, or a field is invalid (a glob of more than 16 `*` or 32 alternatives too)')),
      404: errorResponse('The organization has no tag rule with this id.'),
      ...tooLarge,
    },
  });
  registerOrganizationOperation(registry, {
    method: 'delete',
    path: '/tag-rules/:ruleId',
    operationId: 'deleteTagRule',
    summary: 'Delete a tag rule',
    description: 'Its tag leaves the endpoints it gave it to at once (those it is set on keep it).',
    tag,
    params: ruleIdParam,
    responses: { 204: { description: 'Deleted.' }, 400: errorResponse('The ruleId is not a UUID.'), 404: errorResponse('The organization has no tag rule with this id.') },
  });
};
