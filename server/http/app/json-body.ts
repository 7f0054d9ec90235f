import express from 'express';
import * as z from 'zod';
import type { FieldErrorBody, FieldIssue } from '../../../contracts/common.js';

// The one way /app reads a JSON body: `jsonBody` on the route reads it, `parsedBody` in the
// handler checks it with the operation's schema, and a body refused by either is answered 400
// with the FieldError of docs/api.md (`sendFieldIssues`), one issue per field, before anything
// is stored.

/** The 400 of a body that is not what the operation takes, naming each field refused; nothing is saved. */
export function sendFieldIssues(res: express.Response, issues: FieldIssue[]): void {
  const first = issues[0]!;
  res.status(400).json({ error: `Invalid body field "${first.field}": ${first.message}`, issues } satisfies FieldErrorBody);
}

/**
 * Reads a body of at most `limit` (as express reads it: `'64kb'`, or bytes; 413 beyond) as JSON, whatever its Content-Type says (`curl -d`
 * sends a form's type), as the exceptions' import always did. An empty body is left undefined,
 * for {@link parsedBody} to refuse as missing; one that is not JSON is refused here.
 */
export function jsonBody(limit: string | number): express.RequestHandler {
  const readText = express.text({ type: () => true, limit });
  return (req, res, next) =>
    readText(req, res, (error?: unknown) => {
      if (error) return next(error);
      const text = typeof req.body === 'string' ? req.body : '';
      if (text.trim() === '') {
        req.body = undefined;
        return next();
      }
      try {
        req.body = JSON.parse(text);
      } catch {
        return sendFieldIssues(res, [{ field: 'body', message: 'is not JSON' }]);
      }
      next();
    });
}

/** A body that the operation's own rules check field by field (organizations, agent settings): any JSON object. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** How {@link parsedBody} words an unknown key a body may not set, when the operation says more than "is not a key". */
export type UnknownKeyReason = (key: string) => string | undefined;

/**
 * The body that {@link jsonBody} read, parsed by `schema` (its output, transforms applied), or
 * undefined once a 400 naming each refused field by its whole path (`conditions.1.pattern`) was
 * sent. `what` names the body in the messages: a missing body "is required: send <what> as JSON",
 * another value than an object "must be a JSON object of <what>", an unknown key "is not a key of
 * <what>"; a missing field "is required" unless its schema words it.
 */
export function parsedBody<T>(req: express.Request, res: express.Response, schema: z.ZodType<T>, what: string, unknownKey?: UnknownKeyReason): T | undefined {
  // A schema's own message wins over this one (zod's precedence), so "is required" is only zod's default reworded.
  const body = schema.safeParse(req.body, { error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined) });
  if (body.success) return body.data;
  const issues = body.error.issues.flatMap((issue): FieldIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      const owner = path.length ? `"${path.join('.')}"` : what;
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: unknownKey?.(key) ?? `is not a key of ${owner}` }));
    }
    if (path.length === 0 && issue.code === 'invalid_type') {
      return [{ field: 'body', message: req.body === undefined ? `is required: send ${what} as JSON` : `must be a JSON object of ${what}` }];
    }
    return [{ field: path.join('.') || 'body', message: issue.message }];
  });
  // One issue per field, its first: a value can break several checks of one field.
  const fields = new Set<string>();
  sendFieldIssues(res, issues.filter(({ field }) => !fields.has(field) && fields.add(field)));
  return undefined;
}
