import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threatIntelFileBounds } from '../../contracts/console/threat-intel.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { buildAppOpenApiDocument } from '../http/openapi/app-document.js';
import { rawRequest } from './support/api-client.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { AnswerChecker, type OperationRequest, documentedOperations, sendRequest } from './support/documented-operations.js';
import { smallInventory } from './support/fixtures.js';
import { expectAnsweredAsDocumented, generatedRequests } from './support/generated-requests.js';
import { identitySealer } from './support/identity-sealer.js';
import type { KnownValues } from './support/schema-arbitraries.js';
import { breakingStatedRules, statedRules, validKeepingStatedRules } from './support/stated-rules.js';

/**
 * Requests generated from each operation of /app/openapi.json, as a local tool's author would
 * make them, sent through the product's app with the console token: a valid request (by the
 * schema, keeping the rules the operation states in words) is never refused with 400; an
 * invalid one is; every answer is one the operation documents, its body valid against the
 * schema of its status; a method a path does not have is answered 405 with `Allow`; a body over
 * an operation's limit is answered 413, documented. Every operation of the document is covered
 * as it is added. The budget is bounded: `runs` requests per operation.
 */
const runs = 20;

const inventory = smallInventory(5, 10);
const operations = await documentedOperations(buildAppOpenApiDocument());
const checker = new AnswerChecker();
let app: ConsoleTestServer;
let token: Record<string, string>;
/** Ids the server holds, by parameter or property name, filled as the organization is seeded. */
const known: KnownValues = {
  slug: ['demo'],
  endpointId: inventory.endpoints.map((endpoint) => endpoint.id),
  targetId: inventory.remediationTargets.map((target) => target.id),
  scopeId: inventory.scopes.map((scope) => scope.id),
  findingId: inventory.findings.map((finding) => finding.id),
  cve_id: inventory.findings.slice(0, 20).map((finding) => finding.cve_id),
  finding_id: inventory.findings.slice(0, 20).map((finding) => finding.id),
  endpoint_ids: [],
};

/** Seeds what the operations on one item need through the app itself: a tag rule, an exception, an API key; reads software ids. */
async function seed(server: ConsoleTestServer): Promise<KnownValues> {
  const created = async (path: string, body: unknown) => {
    const answer = await server.app(path, { method: 'POST', body });
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.id as string;
  };
  const rule = await created('/orgs/demo/tag-rules', { tag: 'servers', conditions: [{ kind: 'hostname', pattern: '*' }] });
  const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const exception = await created('/orgs/demo/exceptions', { scope: { kind: 'finding', finding_id: inventory.findings[0]!.id }, reason: 'risk_accepted', expires_at: expires });
  const key = (await server.app('/orgs/demo/api-keys', { method: 'POST', body: { label: 'seeded' } })).body.info.id as string;
  const software = (await server.app('/orgs/demo/software?limit=5')).body.data as { id: string }[];
  const versions = (await server.app(`/orgs/demo/software/${software[0]!.id}`)).body.versions as { id: string }[];
  return { ruleId: [rule], exceptionId: [exception], keyId: [key], productId: software.map((product) => product.id), versionId: versions.map((version) => version.id) };
}

/** A request whose remote URL, if any, is the discard port of loopback, which refuses at once: no request leaves the machine. */
function onThisMachine(request: OperationRequest): OperationRequest {
  if (request.body === undefined || request.mediaType !== undefined) return request;
  const body = JSON.parse(request.body) as unknown;
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  return isObject && 'remoteUrl' in body ? { ...request, body: JSON.stringify({ ...body, remoteUrl: 'http://127.0.0.1:9' }) } : request;
}

beforeAll(async () => {
  app = await startConsoleTestServer([{ slug: 'demo', inventory }], { sealer: identitySealer });
  token = { [consoleTokenHeader]: app.consoleToken, origin: app.url };
  Object.assign(known, await seed(app));
});
afterAll(() => app?.close());

describe('/app/openapi.json: generated requests are answered as documented', () => {
  it.each(operations.map((operation) => [operation.operationId, operation] as const))('%s', async (_id, operation) => {
    const valid = validKeepingStatedRules(operation, operations, known).map(onThisMachine);
    // An invalid request is made from a valid one on what the server holds: an unknown organization is answered 404 first.
    const bases = validKeepingStatedRules(operation, operations, known, true).map(onThisMachine);
    await fc.assert(
      fc.asyncProperty(generatedRequests(operation, known, valid, bases, breakingStatedRules(operation, bases)), async (generated) =>
        expectAnsweredAsDocumented(checker, operation, generated, await sendRequest(app.url, operation, generated.request, token)),
      ),
      { numRuns: runs },
    );
  });

  it('states in words each rule its schemas cannot say', () => {
    for (const operation of operations) {
      for (const rule of statedRules.filter((candidate) => candidate.appliesTo(operation))) expect(operation.statedText, `${operation.operationId}: ${rule.name}`).toMatch(rule.says);
    }
  });
});

/** A path of the document with its parameters filled with values the server holds. */
const filled = (template: string) => template.replace(/\{(\w+)\}/g, (_match, name: string) => known[name]?.[0] ?? '00000000-0000-4000-8000-000000000000');
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

describe('/app/openapi.json: a method a path does not have', () => {
  const paths = [...new Set(operations.map((operation) => operation.template))];
  it.each(paths)('%s is answered 405, with Allow naming the methods it documents', async (template) => {
    const documented = operations.filter((operation) => operation.template === template).map((operation) => operation.method);
    const allowed = [...documented, ...(documented.includes('GET') ? ['HEAD'] : [])].sort();
    for (const method of methods.filter((candidate) => !allowed.includes(candidate))) {
      const answer = await rawRequest(app.server.port, { path: filled(template), method, headers: { [consoleTokenHeader]: app.consoleToken } });
      expect([answer.status, answer.headers.allow], `${method} ${template}: ${answer.body}`).toEqual([405, allowed.join(', ')]);
      if (method !== 'HEAD') expect(JSON.parse(answer.body).error).toMatch(new RegExp(`^Method ${method} is not allowed here: use `));
    }
  });
});

describe('/app/openapi.json: a body over its limit', () => {
  const withBodies = operations.filter((operation) => operation.body);
  it.each(withBodies.map((operation) => [operation.operationId, operation] as const))('%s is answered 413, which it documents', async (_id, operation) => {
    // Larger than any body limit of /app (the largest, an import's, is 16 MB), but an intelligence file's, which is larger (FIRST's EPSS CSV is 11.6 MB unzipped).
    const limit = operation.operationId === 'importThreatIntel' ? threatIntelFileBounds.fileBytes : 16 * 1024 * 1024;
    const body = JSON.stringify({ filler: 'x'.repeat(limit + 1024 * 1024) });
    const path = { ...Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, filled(`{${p.name}}`)])) };
    const answer = await sendRequest(app.url, operation, { path, query: [], body, mediaType: operation.body!.mediaType }, token);
    expect(answer.status, `${operation.operationId}: ${answer.text.slice(0, 200)}`).toBe(413);
    expect(checker.check(operation, answer)).toEqual([]);
  });
});
