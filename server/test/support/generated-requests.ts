import fc from 'fast-check';
import { expect } from 'vitest';
import type { Answer, AnswerChecker, DocumentedOperation, JsonSchema, OperationRequest } from './documented-operations.js';
import { type KnownValues, invalidText, invalidValue, validValue } from './schema-arbitraries.js';

/** A generated request: valid by the document, or made invalid in one way that the document refuses. */
export interface GeneratedRequest {
  request: OperationRequest;
  /** What made it invalid; absent for a valid one. */
  invalid?: string;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Valid requests of an operation: every path parameter, required query parameters, some optional ones, a body valid by its schema. */
export function validRequests(operation: DocumentedOperation, known: KnownValues, heldPathsOnly = false): fc.Arbitrary<OperationRequest> {
  const pathValue = (name: string, schema: JsonSchema) => (heldPathsOnly && known[name]?.length ? fc.constantFrom(...known[name]) : validValue(schema, known, name).map(asText));
  const path = fc.record(Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p.name, p.schema)])));
  const query = fc.tuple(
    ...operation.parameters
      .filter((p) => p.in === 'query')
      .map((p) => {
        const pair = validValue(p.schema, known, p.name).map((value): [string, string][] => [[p.name, asText(value)]]);
        return p.required ? pair : fc.oneof(fc.constant([]), pair);
      }),
  );
  const body = operation.body ? validBody(operation.body, known) : fc.constant(undefined);
  return fc.record({ path, query, body }).map(({ path, query, body }) => ({ path, query: query.flat(), ...body }));
}

/** A JSON body valid by its schema, or the documented example of a body of another media type (a CSV file). */
function validBody(body: NonNullable<DocumentedOperation['body']>, known: KnownValues): fc.Arbitrary<Pick<OperationRequest, 'body' | 'mediaType'>> {
  if (body.mediaType !== 'application/json') return fc.constant({ body: String(body.example), mediaType: body.mediaType });
  return validValue(body.schema, known).map((value) => ({ body: JSON.stringify(value) }));
}

/** The ways a request of an operation can be invalid by its document, each applied to a valid one. */
function invalidRequests(operation: DocumentedOperation, valid: fc.Arbitrary<OperationRequest>, known: KnownValues): fc.Arbitrary<GeneratedRequest>[] {
  const ways: fc.Arbitrary<GeneratedRequest>[] = [];
  for (const parameter of operation.parameters) {
    // An empty path parameter is another path (`/items/` is the list), not a wrong value of this one.
    const wrong = parameter.in === 'path' ? invalidText(parameter.schema)?.filter((text) => text !== '') : invalidText(parameter.schema);
    if (!wrong) continue;
    ways.push(
      fc.tuple(valid, wrong).map(([request, text]) =>
        parameter.in === 'path'
          ? { request: { ...request, path: { ...request.path, [parameter.name]: text } }, invalid: `path parameter ${parameter.name} = ${text}` }
          : { request: { ...request, query: [...request.query.filter(([name]) => name !== parameter.name), [parameter.name, text]] }, invalid: `query parameter ${parameter.name} = ${text}` },
      ),
    );
  }
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  if (queryParameters.length > 0) {
    ways.push(
      fc.tuple(valid, fc.constantFrom(...queryParameters)).chain(([request, parameter]) =>
        fc.tuple(validValue(parameter.schema, known, parameter.name), validValue(parameter.schema, known, parameter.name)).map(([a, b]) => ({
          request: { ...request, query: [...request.query.filter(([name]) => name !== parameter.name), [parameter.name, asText(a)], [parameter.name, asText(b)]] },
          invalid: `query parameter ${parameter.name} given twice`,
        })),
      ),
    );
  }
  const body = operation.body;
  if (body?.mediaType === 'application/json') {
    const notJson = fc.constantFrom('{"unclosed": ', 'not json', '{}}', "{'single': 1}");
    ways.push(fc.tuple(valid, notJson).map(([request, text]) => ({ request: { ...request, body: text }, invalid: 'a body that is not JSON' })));
    if (body.required) ways.push(valid.map((request) => ({ request: { ...request, body: undefined }, invalid: 'no body' })));
    const wrongBody = invalidValue(body.schema);
    if (wrongBody) ways.push(fc.tuple(valid, wrongBody).map(([request, value]) => ({ request: { ...request, body: JSON.stringify(value) }, invalid: `a body of the wrong type` })));
    const properties = Object.entries(body.schema.properties ?? {});
    const wrongProperties = properties.flatMap(([name, schema]) => {
      const wrong = invalidValue(schema);
      return wrong ? [wrong.map((value) => [name, value] as const)] : [];
    });
    if (wrongProperties.length > 0) {
      ways.push(
        fc.tuple(valid, fc.oneof(...wrongProperties)).map(([request, [name, value]]) => ({
          request: { ...request, body: JSON.stringify({ ...(JSON.parse(request.body!) as object), [name]: value }) },
          invalid: `body property ${name} = ${JSON.stringify(value)}`,
        })),
      );
    }
    if (body.schema.additionalProperties === false) {
      ways.push(
        valid.map((request) => ({
          request: { ...request, body: JSON.stringify({ ...(JSON.parse(request.body!) as object), not_a_field: 1 }) },
          invalid: 'a body with a property the schema does not have',
        })),
      );
    }
    const required = body.schema.required ?? [];
    if (required.length > 0) {
      ways.push(
        fc.tuple(valid, fc.constantFrom(...required)).map(([request, name]) => {
          const { [name]: _left, ...rest } = JSON.parse(request.body!) as Record<string, unknown>;
          return { request: { ...request, body: JSON.stringify(rest) }, invalid: `a body without ${name}` };
        }),
      );
    }
  }
  return ways;
}

/**
 * Requests of an operation, as many valid ones as invalid ones; `valid` are its valid requests
 * ({@link validRequests}, or those adjusted to rules the document states in words), and `bases`
 * those the invalid ones are made from (with path parameters the server holds, say).
 */
export function generatedRequests(
  operation: DocumentedOperation,
  known: KnownValues,
  valid = validRequests(operation, known),
  /** The valid requests the invalid ones are made from: by default the valid ones. */
  bases = valid,
  /** Invalid requests of other kinds (those that break a rule stated in words). */
  otherInvalid: fc.Arbitrary<GeneratedRequest>[] = [],
): fc.Arbitrary<GeneratedRequest> {
  const invalid = [...invalidRequests(operation, bases, known), ...otherInvalid];
  const validOnes = { arbitrary: valid.map((request): GeneratedRequest => ({ request })), weight: Math.max(1, invalid.length) };
  return fc.oneof(validOnes, ...invalid.map((arbitrary) => ({ arbitrary, weight: 1 })));
}

/**
 * Checks an answer to a generated request as a tool reading the document expects it: a status
 * and body the operation documents; a valid request is not refused (400); an invalid one is, with 400
 * (or the 422 an operation documents for a refused field).
 */
export function expectAnsweredAsDocumented(checker: AnswerChecker, operation: DocumentedOperation, { request, invalid }: GeneratedRequest, answer: Answer): void {
  const what = `${operation.operationId} ${operation.method} ${JSON.stringify(request).slice(0, 600)}${invalid ? ` (invalid: ${invalid})` : ''} answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  expect(checker.check(operation, answer), what).toEqual([]);
  if (!invalid) expect(answer.status, what).not.toBe(400);
  if (invalid) expect([400, ...(operation.responses.has(422) ? [422] : [])], what).toContain(answer.status);
}
