import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildV1OpenApiDocument } from '../http/openapi/v1-document.js';
import { agentConfigOperation } from '../http/v1/agent-config-route.js';
import { rawRequest } from './support/api-client.js';
import { AnswerChecker, documentedOperations, sendRequest } from './support/documented-operations.js';
import { smallInventory } from './support/fixtures.js';
import { expectAnsweredAsDocumented, generatedRequests } from './support/generated-requests.js';
import type { KnownValues } from './support/schema-arbitraries.js';
import { breakingStatedRules, validKeepingStatedRules } from './support/stated-rules.js';
import { type TestServer, startTestServer } from './support/test-server.js';

/**
 * Requests generated from each operation of /v1/openapi.json, valid and invalid, sent through
 * the product's app: every answer is one the operation documents, with a body valid against
 * the documented schema of its status; a valid request is never refused, an invalid one is
 * answered 400. The budget is bounded: `runs` requests per operation. /app has its own
 * (app-openapi-properties.test.ts).
 */
const runs = 30;

const inventory = smallInventory(5, 10);
const known: KnownValues = {
  endpointId: inventory.endpoints.map((endpoint) => endpoint.id),
  remediationTargetId: inventory.remediationTargets.map((target) => target.id),
  scopeId: inventory.scopes.map((scope) => scope.id),
  findingId: inventory.findings.map((finding) => finding.id),
  cveId: inventory.findings.slice(0, 20).map((finding) => finding.cve_id),
};

const v1Operations = await documentedOperations(buildV1OpenApiDocument([agentConfigOperation]));

let v1: TestServer;
const checker = new AnswerChecker();

beforeAll(async () => {
  v1 = await startTestServer([{ slug: 'demo', inventory }]);
});
afterAll(() => v1?.close());

describe('/v1/openapi.json: generated requests are answered as documented', () => {
  it.each(v1Operations.map((operation) => [operation.operationId, operation] as const))('%s', async (_id, operation) => {
    const key = { Authorization: `Bearer ${v1.orgs[0]!.apiKey}` };
    const valid = validKeepingStatedRules(operation, v1Operations, known);
    await fc.assert(
      fc.asyncProperty(generatedRequests(operation, known, valid, valid, breakingStatedRules(operation, valid)), async (generated) =>
        expectAnsweredAsDocumented(checker, operation, generated, await sendRequest(v1.url, operation, generated.request, key)),
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
