import express from 'express';
import type * as z from 'zod';
import { fieldErrorSchema, uuidSchema } from '../../../contracts/common.js';
import {
  consoleExceptionSchema,
  createExceptionBodySchema,
  exceptionImportResultSchema,
  exceptionListQuerySchema,
  exceptionListSchema,
  exceptionsFileSchema,
  updateExceptionBodySchema,
} from '../../../contracts/console/exceptions.js';
import { ExceptionRevokedError, ExceptionRuleError } from '../../store/remediation/exceptions.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';
import { registerOrganizationOperation } from '../openapi/app-operations.js';
import { type OpenApiRouteRegistrar, errorResponse, fileResponse, jsonResponse, mergeResponses, queryErrors } from '../openapi/responses.js';
import { parseQuery } from '../query-parameters.js';
import { localUserName } from './local-user.js';
import { organizationOf } from './organization-param.js';
import { exceptionExamples } from './exception-examples.js';
import { type UnknownKeyReason, jsonBody, parsedBody, sendFieldIssues } from './json-body.js';
import { uuidParam } from './uuid-param.js';

/** The largest body of a create or an edit. */
const editBodyLimit = '64kb';
/** The largest file an import reads: 10,000 exceptions of a few hundred bytes, with room for notes. */
const importBodyLimit = '16mb';

/** Who made, edited or revoked an exception is the server's local user (local-user.ts), never a body's say. */
const chosenByServer: UnknownKeyReason = (key) => (key.endsWith('_by') ? "is the server's local user, which a body does not choose" : undefined);

/** Answers a rule an exception breaks as 400 naming the field; rethrows anything else. */
function answerRefusal(res: express.Response, error: unknown): void {
  if (error instanceof ExceptionRuleError) return sendFieldIssues(res, [{ field: error.field, message: error.message }]);
  if (error instanceof ExceptionRevokedError) throw new HttpError(409, error.message);
  throw error;
}

/**
 * An organization's exceptions, under `/app/orgs/:slug/exceptions`: list (by state), create,
 * edit, revoke (the record stays), export as a file and import one. Every write is one
 * `Store.write` of `exceptions`: it changes no inventory row, so the data's caches stay, and
 * what derives from exceptions keys on them (server/store/remediation/exception-matches.ts).
 */
export function exceptionRoutes(store: Store): express.Router {
  const router = express.Router({ mergeParams: true });

  router.get('/exceptions', async (req, res) => {
    const { state } = parseQuery(req, exceptionListQuerySchema);
    res.json({ data: await store.exceptions.list(organizationOf(res).rowId, state) });
  });

  router.get('/exceptions/export', (_req, res) => {
    const organization = organizationOf(res);
    const file = store.exceptions.exportFile(organization.rowId, { slug: organization.slug, name: organization.name });
    res
      .status(200)
      .set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="${organization.slug}-exceptions.json"` })
      .send(`${JSON.stringify(file, null, 2)}\n`);
  });

  router.post('/exceptions/import', jsonBody(importBodyLimit), (req, res) => {
    const org = organizationOf(res).rowId;
    const file = parsedBody(req, res, exceptionsFileSchema, 'the exceptions file', chosenByServer);
    if (!file) return;
    try {
      res.json(store.exceptions.importFile(org, file));
    } catch (error) {
      answerRefusal(res, error);
    }
  });

  router.post('/exceptions', jsonBody(editBodyLimit), async (req, res) => {
    const org = organizationOf(res).rowId;
    const body = parsedBody(req, res, createExceptionBodySchema, 'the exception', chosenByServer);
    if (!body) return;
    let id: string;
    try {
      id = store.exceptions.create(org, body, localUserName()).id;
    } catch (error) {
      return answerRefusal(res, error);
    }
    res.status(201).json(await listedException(store, org, id));
  });

  router.patch('/exceptions/:exceptionId', jsonBody(editBodyLimit), async (req, res) => {
    const id = uuidParam(req, 'exceptionId');
    const org = organizationOf(res).rowId;
    const body = parsedBody(req, res, updateExceptionBodySchema, 'the exception', chosenByServer);
    if (!body) return;
    try {
      if (!store.exceptions.update(org, id, body, localUserName())) throw new HttpError(404, `Exception ${id} not found`);
    } catch (error) {
      return answerRefusal(res, error);
    }
    res.json(await listedException(store, org, id));
  });

  router.post('/exceptions/:exceptionId/revoke', async (req, res) => {
    const id = uuidParam(req, 'exceptionId');
    const org = organizationOf(res).rowId;
    try {
      if (!store.exceptions.revoke(org, id, localUserName())) throw new HttpError(404, `Exception ${id} not found`);
    } catch (error) {
      return answerRefusal(res, error);
    }
    res.json(await listedException(store, org, id));
  });

  return router;
}

/** One exception as the list answers it, just written. */
async function listedException(store: Store, orgRowId: number, id: string) {
  const listed = (await store.exceptions.list(orgRowId)).find((exception) => exception.id === id.toLowerCase());
  if (!listed) throw new HttpError(404, `Exception ${id} not found`);
  return listed;
}

const exceptionIdParam = { exceptionId: uuidSchema.meta({ description: "The exception's id." }) };
/** The 400 of a refused body: a FieldError, whose `issues` name the field. */
const refused = (what: string) => ({ 400: jsonResponse(fieldErrorSchema, `${what}: a FieldError, whose message and \`issues\` name the field.`) });
/** A JSON request body that the operation needs, with its example. */
const requiredBody = (schema: z.ZodType, example: unknown) => ({ body: { required: true, content: { 'application/json': { schema, example } } } });

/** {@link exceptionRoutes} in the /app OpenAPI document. */
export const exceptionOperations: OpenApiRouteRegistrar = (registry) => {
  const examples = exceptionExamples(Date.now());
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/exceptions',
    operationId: 'listExceptions',
    summary: "List the organization's exceptions",
    description: 'Every exception, newest first, or those in one state now; each with the findings its scope names in the data now.',
    tag: 'Exceptions',
    request: { query: exceptionListQuerySchema },
    responses: { 200: jsonResponse(exceptionListSchema, 'The exceptions.'), ...queryErrors() },
  });
  // Before the operations on one exception, whose path template would also match these paths.
  registerOrganizationOperation(registry, {
    method: 'get',
    path: '/exceptions/export',
    operationId: 'exportExceptions',
    summary: "Export the organization's exceptions as a file",
    description: 'Every exception, revoked and expired ones included, in a versioned JSON document that `importExceptions` takes.',
    tag: 'Exceptions',
    responses: { 200: fileResponse('application/json', exceptionsFileSchema, 'The exceptions file.') },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/exceptions/import',
    operationId: 'importExceptions',
    summary: 'Import an exceptions file',
    description:
      'All or nothing: every exception is checked first (the format and version, each field, an expiry at most a year ahead and after its making, ' +
      'an id once, the scope of an id this organization holds unchanged). An id not held is created; a held one is taken from the file when the file ' +
      'changed it later than it was changed here (made, edited or revoked), unless it is revoked here; otherwise it is skipped. ' +
      'Who made, edited and revoked each is kept as the file says: `updated_at` and `updated_by` come together or not at all, and so do `revoked_at` and `revoked_by`; neither date is before `created_at`.',
    tag: 'Exceptions',
    request: requiredBody(exceptionsFileSchema, examples.file),
    responses: {
      200: jsonResponse(exceptionImportResultSchema, 'How many were created, updated and skipped.'),
      ...refused('The file is missing, not JSON, not an exceptions file of this version, or an exception in it is invalid, and nothing is stored'),
      413: errorResponse(`The file is larger than ${importBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/exceptions',
    operationId: 'createException',
    summary: 'Create an exception',
    description:
      "Accepts a CVE everywhere or on chosen endpoints, or one finding, until `expires_at`: the findings it covers are left out of the coverage gaps and the risk figures while it is active. Made by the server's local user.",
    tag: 'Exceptions',
    request: requiredBody(createExceptionBodySchema, examples.create),
    responses: {
      201: jsonResponse(consoleExceptionSchema, 'The exception.'),
      ...refused('The body is missing or not JSON, a field is invalid, or the expiry is not after now or more than a year ahead'),
      413: errorResponse(`The body is larger than ${editBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'patch',
    path: '/exceptions/:exceptionId',
    operationId: 'updateException',
    summary: "Edit an exception's reason, note or expiry",
    description: "Its scope stays. A new expiry is after now and at most a year ahead; an expired exception given one is active again. Recorded as edited by the server's local user.",
    tag: 'Exceptions',
    params: exceptionIdParam,
    request: requiredBody(updateExceptionBodySchema, examples.update),
    responses: {
      200: jsonResponse(consoleExceptionSchema, 'The exception, edited.'),
      ...mergeResponses(
        { 400: errorResponse('The exceptionId is not a UUID.') },
        refused('The body is missing, not JSON or empty (`{}`), a field is invalid, or the expiry is out of bounds'),
      ),
      404: errorResponse('The organization has no exception with this id.'),
      409: errorResponse('The exception is revoked.'),
      413: errorResponse(`The body is larger than ${editBodyLimit}.`),
    },
  });
  registerOrganizationOperation(registry, {
    method: 'post',
    path: '/exceptions/:exceptionId/revoke',
    operationId: 'revokeException',
    summary: 'Revoke an exception',
    description: "Its findings count again at once; the record stays, revoked by the server's local user.",
    tag: 'Exceptions',
    params: exceptionIdParam,
    responses: {
      200: jsonResponse(consoleExceptionSchema, 'The exception, revoked.'),
      400: errorResponse('The exceptionId is not a UUID.'),
      404: errorResponse('The organization has no exception with this id.'),
      409: errorResponse('The exception is revoked already.'),
    },
  });
};
