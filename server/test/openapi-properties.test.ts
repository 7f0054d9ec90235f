import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { buildAppOpenApiDocument } from '../http/openapi/app-document.js';
import { buildV1OpenApiDocument } from '../http/openapi/v1-document.js';
import { agentConfigOperation } from '../http/v1/agent-config-route.js';
import { rawRequest } from './support/api-client.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { AnswerChecker, type DocumentedOperation, type OperationRequest, documentedOperations, sendRequest } from './support/documented-operations.js';
import { smallInventory } from './support/fixtures.js';
import { identitySealer } from './support/identity-sealer.js';
import { type KnownValues, invalidText, invalidValue, validValue } from './support/schema-arbitraries.js';
import { type TestServer, startTestServer } from './support/test-server.js';

/**
 * Requests generated from each operation of both documents, valid and invalid, sent through
 * the product's app: every answer is one the operation documents, with a body valid against
 * the documented schema of its status, and an invalid request is answered 4xx. The budget is
 * bounded: `runs` requests per operation.
 */
const runs = 30;

const inventory = smallInventory(5, 10);
const known: KnownValues = {
  slug: ['demo'],
  endpointId: inventory.endpoints.map((endpoint) => endpoint.id),
  targetId: inventory.remediationTargets.map((target) => target.id),
  remediationTargetId: inventory.remediationTargets.map((target) => target.id),
  scopeId: inventory.scopes.map((scope) => scope.id),
  findingId: inventory.findings.map((finding) => finding.id),
  cveId: inventory.findings.slice(0, 20).map((finding) => finding.cve_id),
  cve_id: inventory.findings.slice(0, 20).map((finding) => finding.cve_id),
  finding_id: inventory.findings.slice(0, 20).map((finding) => finding.id),
  // A remote that refuses at once (the discard port of loopback), never one across the network.
  remoteUrl: ['http://127.0.0.1:9', 'http://127.0.0.1:9/v1/', 'ftp://127.0.0.1:9', 'not a url'],
};

const [v1Operations, appOperations] = await Promise.all([
  documentedOperations(buildV1OpenApiDocument([agentConfigOperation])),
  documentedOperations(buildAppOpenApiDocument()),
]);

/** A generated request: valid by the document, or made invalid in one way that the document refuses. */
interface Generated {
  request: OperationRequest;
  /** What made it invalid; absent for a valid one. */
  invalid?: string;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Valid requests of an operation: every path parameter, required query parameters, some optional ones, a body valid by its schema. */
function validRequests(operation: DocumentedOperation): fc.Arbitrary<OperationRequest> {
  const path = fc.record(
    Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, validValue(p.schema, known, p.name).map(asText)])),
  );
  const query = fc.tuple(
    ...operation.parameters
      .filter((p) => p.in === 'query')
      .map((p) => {
        const pair = validValue(p.schema, known, p.name).map((value): [string, string][] => [[p.name, asText(value)]]);
        return p.required ? pair : fc.oneof(fc.constant([]), pair);
      }),
  );
  const body = operation.body ? validValue(operation.body.schema, known).map((value) => JSON.stringify(value)) : fc.constant(undefined);
  return fc.record({ path, query, body }).map(({ path, query, body }) => ({ path, query: query.flat(), ...(body === undefined ? {} : { body }) }));
}

/** The ways a request of an operation can be invalid by its document, each applied to a valid one. */
function invalidRequests(operation: DocumentedOperation, valid: fc.Arbitrary<OperationRequest>): fc.Arbitrary<Generated>[] {
  const ways: fc.Arbitrary<Generated>[] = [];
  for (const parameter of operation.parameters) {
    const wrong = invalidText(parameter.schema);
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
  if (body) {
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

function requests(operation: DocumentedOperation): fc.Arbitrary<Generated> {
  const valid = validRequests(operation);
  const invalid = invalidRequests(operation, valid);
  // As many valid requests as invalid ones.
  const validOnes = { arbitrary: valid.map((request): Generated => ({ request })), weight: Math.max(1, invalid.length) };
  return fc.oneof(validOnes, ...invalid.map((arbitrary) => ({ arbitrary, weight: 1 })));
}

let v1: TestServer;
let app: ConsoleTestServer;
const checker = new AnswerChecker();

beforeAll(async () => {
  [v1, app] = await Promise.all([startTestServer([{ slug: 'demo', inventory }]), startConsoleTestServer([{ slug: 'demo', inventory }], { sealer: identitySealer })]);
});
afterAll(async () => {
  await Promise.all([v1?.close(), app?.close()]);
});

async function holdsTheDocument(operation: DocumentedOperation, { request, invalid }: Generated, send: () => ReturnType<typeof sendRequest>) {
  const answer = await send();
  const what = `${operation.method} ${JSON.stringify(request)}${invalid ? ` (invalid: ${invalid})` : ''}`;
  expect(checker.check(operation, answer), what).toEqual([]);
  // A parameter the document allows is never the one refused.
  if (!invalid) expect(answer.text, what).not.toMatch(/"error":"(Invalid (query|path) parameter|Query parameter "[^"]*" is given more than once)/);
  if (invalid) expect(answer.status >= 400 && answer.status < 500, `${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`).toBe(true);
}

describe('/v1/openapi.json: generated requests are answered as documented', () => {
  it.each(v1Operations.map((operation) => [operation.operationId, operation] as const))('%s', async (_id, operation) => {
    const key = { Authorization: `Bearer ${v1.orgs[0]!.apiKey}` };
    await fc.assert(
      fc.asyncProperty(requests(operation), (generated) =>
        holdsTheDocument(operation, generated, () => sendRequest(v1.url, operation, generated.request, key)),
      ),
      { numRuns: runs },
    );
  });
});

describe('/app/openapi.json: generated requests are answered as documented', () => {
  it.each(appOperations.map((operation) => [operation.operationId, operation] as const))('%s', async (_id, operation) => {
    const token = { [consoleTokenHeader]: app.consoleToken, origin: app.url };
    await fc.assert(
      fc.asyncProperty(requests(operation), (generated) =>
        holdsTheDocument(operation, generated, () => sendRequest(app.url, operation, generated.request, token)),
      ),
      { numRuns: runs },
    );
  });
});

describe('/v1/openapi.json: a method it does not document', () => {
  it('is answered 405 with Allow: GET, HEAD on every path, the public ones included, whose HEAD is a GET without a body', async () => {
    const paths = [...new Set(v1Operations.map((operation) => operation.template.replace(/\{\w+\}/, known.endpointId![0]!)))];
    expect(paths).toEqual(expect.arrayContaining(['/health', '/v1/openapi.json', '/v1/endpoints']));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'), async (path, method) => {
        const answer = await rawRequest(v1.port, { path, method, headers: { authorization: `Bearer ${v1.orgs[0]!.apiKey}` } });
        expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(405);
        expect(answer.headers.allow).toBe('GET, HEAD');
        expect(JSON.parse(answer.body)).toEqual({ error: `Method ${method} is not allowed here: use GET or HEAD` });
      }),
      { numRuns: runs },
    );
    for (const path of ['/health', '/v1/openapi.json']) {
      const head = await rawRequest(v1.port, { path, method: 'HEAD' });
      expect([head.status, head.body], `HEAD ${path}`).toEqual([200, '']);
    }
  });
});
