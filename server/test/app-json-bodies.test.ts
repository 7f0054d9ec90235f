import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type DocumentedOperation, type OperationRequest, documentedOperations, sendRequest } from './support/documented-operations.js';
import { smallInventory } from './support/fixtures.js';
import { identitySealer } from './support/identity-sealer.js';

/**
 * With a sealer, as the product runs: the sync's operations are mounted. Every /app operation that takes a JSON body refuses a bad one the same way (server/http/app/json-body.ts):
 * 400 with the FieldError of docs/api.md, its `error` naming the first of `issues`. The operations are those
 * the served /app/openapi.json lists with a JSON body, so a new one is covered as it is added. A body is read
 * before anything else of the request but its path, so an id need only be well formed.
 */
let server: ConsoleTestServer;
let operations: DocumentedOperation[];
let headers: Record<string, string>;

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'demo', inventory: smallInventory(2, 2) }], { sealer: identitySealer });
  headers = { [consoleTokenHeader]: server.consoleToken, origin: server.url };
  const document = await server.app('/openapi.json');
  operations = (await documentedOperations(document.body)).filter((operation) => operation.body?.mediaType === 'application/json');
});
afterAll(() => server?.close());

/** A request of `operation` on the demo organization, its other path parameters well-formed ids, with `body` as sent. */
function withBody(operation: DocumentedOperation, body: string | undefined): OperationRequest {
  const path = Object.fromEntries(operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameter.name === 'slug' ? 'demo' : randomUUID()]));
  return { path, query: [], ...(body === undefined ? {} : { body }) };
}

/** The answer, checked to be the one shape of a refused body; its issues. */
async function refusedIssues(operation: DocumentedOperation, body: string | undefined): Promise<{ field: string; message: string }[]> {
  const answer = await sendRequest(server.url, operation, withBody(operation, body), headers);
  const where = `${operation.operationId} with ${body ?? 'no body'}: ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBe(400);
  const refusal = JSON.parse(answer.text) as { error: string; issues: { field: string; message: string }[] };
  expect(Object.keys(refusal).sort(), where).toEqual(['error', 'issues']);
  expect(refusal.issues.length, where).toBeGreaterThan(0);
  for (const issue of refusal.issues) expect(issue, where).toEqual({ field: expect.any(String), message: expect.any(String) });
  expect(refusal.error, where).toBe(`Invalid body field "${refusal.issues[0]!.field}": ${refusal.issues[0]!.message}`);
  return refusal.issues;
}

describe('/app: a JSON body that is refused is answered with one shape', () => {
  it('lists the operations that take a JSON body', () => {
    // The document lists them; a count this low would mean the filter above lost them.
    expect(operations.length).toBeGreaterThanOrEqual(10);
  });

  it('answers a body that is not JSON 400, naming `body`', async () => {
    for (const operation of operations) {
      for (const text of ['{"unclosed": ', 'not json']) {
        expect(await refusedIssues(operation, text)).toEqual([{ field: 'body', message: 'is not JSON' }]);
      }
    }
  });

  it('answers JSON that is not an object 400, saying what the body must be', async () => {
    for (const operation of operations) {
      for (const text of ['[]', 'null', '"text"', '42']) {
        expect(await refusedIssues(operation, text)).toEqual([{ field: 'body', message: expect.stringMatching(/^must be a JSON object of ./) }]);
      }
    }
  });

  it('answers a missing body 400 where the document says the body is required', async () => {
    for (const operation of operations.filter((operation) => operation.body!.required)) {
      expect(await refusedIssues(operation, undefined)).toEqual([{ field: 'body', message: expect.stringMatching(/^is required: send .+ as JSON$/) }]);
    }
  });

  it('names an unknown key where the schema has no other keys (connecting and changing organizations answer their fields 422)', async () => {
    const strict = operations.filter((operation) => operation.body!.schema.additionalProperties === false && !operation.responses.has(422));
    expect(strict.length).toBeGreaterThan(0);
    for (const operation of strict) {
      expect(await refusedIssues(operation, JSON.stringify({ not_a_key: 1 }))).toContainEqual({ field: 'not_a_key', message: expect.any(String) });
    }
  });
});
