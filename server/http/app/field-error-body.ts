import express from 'express';
import type { FieldErrorBody, FieldIssue } from '../../../contracts/common.js';

/** The 400 of a body that breaks its rules, naming each field refused (`FieldError`); nothing is saved. */
export function sendFieldIssues(res: express.Response, issues: FieldIssue[]): void {
  const first = issues[0]!;
  res.status(400).json({ error: `Invalid body field "${first.field}": ${first.message}`, issues } satisfies FieldErrorBody);
}

/**
 * Reads a JSON body of at most `limit`; a body that is not JSON is refused as one that breaks
 * the rules, with the same answer's shape (field `body`).
 */
export function jsonFieldsBody(limit: string): express.RequestHandler {
  const readJson = express.json({ limit });
  return (req, res, next) =>
    readJson(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type !== 'entity.parse.failed') return next(error);
      sendFieldIssues(res, [{ field: 'body', message: 'is not JSON' }]);
    });
}
