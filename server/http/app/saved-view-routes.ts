import express from 'express';
import type * as z from 'zod';
import { fieldErrorSchema, uuidSchema } from '../../../contracts/common.js';
import { savedViewLimits, savedViewsFileFormat } from '../../../contracts/console/saved-view-basics.js';
import {
  createSavedViewBodySchema,
  savedViewExportQuerySchema,
  savedViewImportResultSchema,
  savedViewListSchema,
  savedViewQueryIssue,
  savedViewSchema,
  savedViewsFileOf,
  savedViewsFileSchema,
  updateSavedViewBodySchema,
} from '../../../contracts/saved-views.js';
import { SavedViewConflictError } from '../../store/records/saved-view-records.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, fileResponse, jsonResponse, mergeResponses, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { jsonBody, parsedBody, sendFieldIssues } from './json-body.js';
import { organizationOf } from './organization-param.js';
import { uuidParam } from './uuid-param.js';

/** The largest body of a create or an edit: a name and a query string of at most 2,048 characters, with room. */
const editBodyLimit = '16kb';
/** The largest views file an import reads. */
const importBodyLimit = savedViewLimits.fileBytes;

/** Runs a write of views, answering a name taken or a view too many as 409; rethrows anything else. */
function refusingConflicts<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof SavedViewConflictError) throw new HttpError(409, error.message);
    throw error;
  }
}

/**
 * An organization's saved views, under `/app/orgs/:slug/saved-views` (issue 40): list, create,
 * rename or replace the query, delete, export as a small file and import one. A view's query is
 * checked by its view's route's own schema (contracts/saved-views.ts) before anything is
 * stored; every write is one store write of `saved-views` (store/records/saved-view-records.ts).
 */
export function savedViewRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/saved-views', (_req, res) => {
    res.json({ data: store.savedViews.list(organizationOf(res).rowId) });
  });

  router.post('/saved-views', jsonBody(editBodyLimit), (req, res) => {
    const body = parsedBody(req, res, createSavedViewBodySchema, 'the saved view');
    if (!body) return;
    const [made] = refusingConflicts(() => store.savedViews.create(organizationOf(res).rowId, [body]));
    res.status(201).json(made);
  });

  // Before the operations on one view, whose path would also match these.
  router.get('/saved-views/export', (req, res) => {
    const organization = organizationOf(res);
    const { id } = parseQuery(req, savedViewExportQuerySchema);
    const one = id === undefined ? undefined : store.savedViews.get(organization.rowId, id);
    if (id !== undefined && !one) throw new HttpError(404, `Saved view ${id} not found`);
    const views = one ? [one] : store.savedViews.list(organization.rowId);
    res
      .status(200)
      .set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="${organization.slug}-saved-views.json"` })
      .send(`${JSON.stringify(savedViewsFileOf(organization, views, new Date(store.now()).toISOString()), null, 2)}\n`);
  });

  router.post('/saved-views/import', jsonBody(importBodyLimit), (req, res) => {
    const file = parsedBody(req, res, savedViewsFileSchema, 'the saved views file');
    if (!file) return;
    const made = refusingConflicts(() => store.savedViews.create(organizationOf(res).rowId, file.views));
    res.json({ created: made.length, data: made });
  });

  router.patch('/saved-views/:viewId', jsonBody(editBodyLimit), (req, res) => {
    const id = uuidParam(req, 'viewId');
    const org = organizationOf(res).rowId;
    const body = parsedBody(req, res, updateSavedViewBodySchema, 'the saved view');
    if (!body) return;
    const current = store.savedViews.get(org, id);
    if (!current) throw new HttpError(404, `Saved view ${id} not found`);
    // The query is its view's: checked here, where the view is known.
    const issue = body.query === undefined ? undefined : savedViewQueryIssue(current.view, body.query);
    if (issue) return sendFieldIssues(res, [{ field: 'query', message: issue }]);
    const updated = refusingConflicts(() => store.savedViews.update(org, id, body));
    if (!updated) throw new HttpError(404, `Saved view ${id} not found`);
    res.json(updated);
  });

  router.delete('/saved-views/:viewId', (req, res) => {
    const id = uuidParam(req, 'viewId');
    if (!store.savedViews.delete(organizationOf(res).rowId, id)) throw new HttpError(404, `Saved view ${id} not found`);
    res.status(204).end();
  });

  return router;
}

const viewIdParam = { viewId: uuidSchema.meta({ description: "The saved view's id." }) };
/** The 400 of a refused body: a FieldError, whose `issues` name the field. */
const refused = (what: string) => ({ 400: jsonResponse(fieldErrorSchema, `${what}: a FieldError, whose message and \`issues\` name the field, and nothing is stored.`) });
/** A JSON request body that the operation needs, with its example. */
const requiredBody = (schema: z.ZodType, example: unknown) => ({ body: { required: true, content: { 'application/json': { schema, example } } } });
const exampleView = { name: 'Internet-facing, critical', view: 'vulnerability-findings', query: 'status=open&criticality=critical&tag=internet-facing' };
const importedView = { name: 'Overdue KEV findings', view: 'vulnerability-findings', query: 'isKev=true&overdue=true' };

/** {@link savedViewRoutes} in the /app OpenAPI document. */
export const savedViewOperations: OpenApiRouteRegistrar = (registry) => {
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/saved-views',
    operationId: 'listSavedViews',
    summary: "List the organization's saved views",
    description: 'Every saved view, by name without case: its console view and the filters of its URL.',
    tag: 'Saved views',
    responses: { 200: jsonResponse(savedViewListSchema, 'The views.') },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/saved-views',
    operationId: 'createSavedView',
    summary: 'Save a view',
    description:
      "A console view's filters (its URL's query, without the table's position: `offset`, `row` and `selected`) under a name unique in the organization without case. " +
      "The query is checked by the view's route's own query schema: an unknown parameter, a value it refuses or a parameter given twice is refused.",
    tag: 'Saved views',
    request: requiredBody(createSavedViewBodySchema, exampleView),
    responses: {
      201: jsonResponse(savedViewSchema, 'The view.'),
      ...refused('The body is missing or not JSON, or a field is invalid (the query names the parameter its view refuses)'),
      409: errorResponse(`Another view has this name, or the organization holds ${savedViewLimits.perOrganization} views.`),
      413: errorResponse(`The body is larger than ${editBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/saved-views/export',
    operationId: 'exportSavedViews',
    summary: 'Export saved views as a file',
    description: "One view (`id`), or every view of the organization, in a versioned JSON document that `importSavedViews` takes.",
    tag: 'Saved views',
    request: { query: savedViewExportQuerySchema },
    responses: {
      200: fileResponse('application/json', savedViewsFileSchema, 'The views file.'),
      ...queryErrors('id is not a UUID.'),
      404: errorResponse('The organization has no view of this id.'),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/saved-views/import',
    operationId: 'importSavedViews',
    summary: 'Import a saved views file',
    description:
      `All or nothing: the format and version, each view (its name, its view and its query, checked as \`createSavedView\` checks them), at most ${savedViewLimits.perFile} views, each name once. ` +
      'Each view is made with an id of its own; a name this organization already has refuses the whole file with a 409 that names it.',
    tag: 'Saved views',
    request: requiredBody(savedViewsFileSchema, { ...savedViewsFileFormat, exported_at: '2026-11-01T09:00:00.000Z', organization: { slug: 'acme', name: 'Acme' }, views: [importedView] }),
    responses: {
      200: jsonResponse(savedViewImportResultSchema, 'The views made.'),
      ...refused('The file is missing, not JSON, not a saved views file of this version, or a view in it is invalid'),
      409: errorResponse('A view of the file has the name of one the organization has, or the organization would hold too many views; nothing is stored.'),
      413: errorResponse(`The file is larger than ${importBodyLimit / 1024 / 1024} MB.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'patch',
    path: '/saved-views/:viewId',
    operationId: 'updateSavedView',
    summary: 'Rename a saved view, or replace its filters',
    description: "A new name, a new query (checked against the view's route, as when it was saved), or both; its console view stays.",
    tag: 'Saved views',
    params: viewIdParam,
    request: requiredBody(updateSavedViewBodySchema, { name: 'Critical, internet-facing' }),
    responses: {
      200: jsonResponse(savedViewSchema, 'The view, changed.'),
      ...mergeResponses({ 400: errorResponse('The viewId is not a UUID.') }, refused('The body is missing, not JSON or empty, or a field is invalid')),
      404: errorResponse('The organization has no view of this id.'),
      409: errorResponse('Another view has this name.'),
      413: errorResponse(`The body is larger than ${editBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'delete',
    path: '/saved-views/:viewId',
    operationId: 'deleteSavedView',
    summary: 'Delete a saved view',
    tag: 'Saved views',
    params: viewIdParam,
    responses: {
      204: { description: 'The view is deleted.' },
      400: errorResponse('The viewId is not a UUID.'),
      404: errorResponse('The organization has no view of this id.'),
    },
  });
};
