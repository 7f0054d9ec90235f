import express from 'express';
import type { z } from 'zod';
import type { FieldErrorBody, FieldIssue } from '../../../contracts/common.js';

/** The 400 of a body that is not what the operation takes, naming each field refused; nothing is saved. */
export function sendFieldIssues(res: express.Response, issues: FieldIssue[]): void {
  const first = issues[0]!;
  res.status(400).json({ error: `Invalid body field "${first.field}": ${first.message}`, issues } satisfies FieldErrorBody);
}

/**
 * Reads a JSON body of at most `limit`; one that is not JSON is refused as a body that is not
 * what the operation takes, with the same answer's shape ({@link sendFieldIssues}).
 */
export function jsonBody(limit: string): express.RequestHandler {
  const readJson = express.json({ limit });
  return (req, res, next) =>
    readJson(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type !== 'entity.parse.failed') return next(error);
      sendFieldIssues(res, [{ field: 'body', message: 'is not JSON' }]);
    });
}

/**
 * The body parsed by `schema` (a strict object), or undefined once a 400 naming each field
 * refused was sent: an unknown key is "not <what>", a body that is no object "must be a JSON object of <what>".
 */
export function parsedBody<T>(req: express.Request, res: express.Response, schema: z.ZodType<T>, what: string): T | undefined {
  const body = schema.safeParse(req.body);
  if (body.success) return body.data;
  sendFieldIssues(
    res,
    body.error.issues.map((issue) => ({
      field: issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue.path[0] ?? 'body'),
      message: issue.code === 'unrecognized_keys' ? `is not ${what}` : issue.path.length ? issue.message : `must be a JSON object of ${what}`,
    })),
  );
  return undefined;
}
