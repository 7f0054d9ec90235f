import express from 'express';
import type { z } from 'zod';
import { type FieldErrorBody, fieldErrorSchema, uuidSchema } from '../../../contracts/common.js';
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
import { uuidParam } from './uuid-param.js';

/** The largest body of a create or an edit. */
const editBodyLimit = '64kb';
/** The largest file an import reads: 10,000 exceptions of a few hundred bytes, with room for notes. */
const importBodyLimit = '16mb';

/** A body that is refused, answered 400 with the field's issue (what the console shows beside the field). */
class InvalidBody extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the request's body (as text, whatever its type) as JSON; `what` names it in the message. */
function jsonBody(req: express.Request, what: string): unknown {
  const text = typeof req.body === 'string' ? req.body : '';
  if (text.trim() === '') throw new InvalidBody('body', `is required: send ${what.toLowerCase()} as JSON`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidBody('body', `${what} is not JSON (${(error as Error).message})`);
  }
}

/** Parses a body with its schema; the first problem is thrown as {@link InvalidBody}, naming its field. */
function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    // Who made, edited or revoked an exception is the server's local user (local-user.ts), never a body's say.
    return fail([...path, key].join('.'), key.endsWith('_by') ? "is the server's local user, which a body does not choose" : 'is not a field of it');
  }
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  return fail(path.join('.') || 'body', message);
}

function fail(field: string, message: string): never {
  throw new InvalidBody(field, message);
}

/** Answers an invalid body, or a rule an exception breaks, as 400 naming the field; rethrows anything else. */
function answerRefusal(res: express.Response, error: unknown): void {
  if (error instanceof InvalidBody || error instanceof ExceptionRuleError) {
    const body: FieldErrorBody = { error: `Invalid body field "${error.field}": ${error.message}`, issues: [{ field: error.field, message: error.message }] };
    res.status(400).json(body);
    return;
  }
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
  const text = (limit: string) => express.text({ type: () => true, limit });

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

  router.post('/exceptions/import', text(importBodyLimit), (req, res) => {
    const org = organizationOf(res).rowId;
    try {
      const file = parseBody(exceptionsFileSchema, jsonBody(req, 'The file'));
      res.json(store.exceptions.importFile(org, file));
    } catch (error) {
      answerRefusal(res, error);
    }
  });

  router.post('/exceptions', text(editBodyLimit), async (req, res) => {
    const org = organizationOf(res).rowId;
    let id: string;
    try {
      const body = parseBody(createExceptionBodySchema, jsonBody(req, 'The body'));
      id = store.exceptions.create(org, body, localUserName()).id;
    } catch (error) {
      return answerRefusal(res, error);
    }
    res.status(201).json(await listedException(store, org, id));
  });

  router.patch('/exceptions/:exceptionId', text(editBodyLimit), async (req, res) => {
    const id = uuidParam(req, 'exceptionId');
    const org = organizationOf(res).rowId;
    try {
      const body = parseBody(updateExceptionBodySchema, jsonBody(req, 'The body'));
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
