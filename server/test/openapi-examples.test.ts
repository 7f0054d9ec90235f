import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../contracts/inventory.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { AnswerChecker, type DocumentedOperation, type JsonSchema, type OperationRequest, documentedOperations, sendRequest } from './support/documented-operations.js';
import { smallInventory } from './support/fixtures.js';
import { identitySealer } from './support/identity-sealer.js';
import { type TestServer, startTestServer } from './support/test-server.js';

/** The UUID the documents give as the example of every id. */
const exampleId = '3f0c2a8e-6d1b-4c55-9a0e-2b7f1c9d4e10';

/**
 * The data both servers hold, as organization `demo` (the documents' example slug): its first
 * endpoint, remediation target, scope and finding carry the example id, so that a get of the
 * example id finds something.
 */
function exampleInventory(): Inventory {
  const inventory = smallInventory(11, 12);
  let json = JSON.stringify(inventory);
  for (const first of [inventory.endpoints[0]!, inventory.remediationTargets[0]!, inventory.scopes[0]!, inventory.findings[0]!]) {
    json = json.replaceAll(first.id, exampleId);
  }
  return JSON.parse(json) as Inventory;
}

/**
 * The example of a schema as a tool composes one: its own `example` (or default, or first
 * allowed value), else an object of its properties' examples; undefined when a required
 * property has none.
 */
function exampleOf(schema: JsonSchema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return exampleOf(variant);
  if (schema.items) {
    const item = exampleOf(schema.items);
    return item === undefined ? undefined : [item];
  }
  if (!schema.properties) return undefined;
  const object: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = exampleOf(property);
    if (value !== undefined) object[name] = value;
    else if (schema.required?.includes(name)) return undefined;
  }
  return object;
}

/**
 * Operations whose example cannot be answered 2xx by a test server, each with the documented
 * status it answers instead and why. Every other example must be answered 2xx.
 */
const notSuccessful: Record<string, { status: number; why: string }> = {
  disconnectOrganization: { status: 409, why: 'the example organization is local: only replicas are disconnected' },
  updateOrganization: { status: 400, why: 'the example organization is local: only a replica has a remote to change' },
  startSync: { status: 409, why: 'the example organization is local: only replicas sync' },
  updateSyncSettings: { status: 409, why: 'the example organization is local: only replicas sync' },
  setSyncPaused: { status: 409, why: 'the example organization is local: only replicas sync' },
  listSyncChanges: { status: 409, why: 'the example organization is local: only replicas sync' },
  getSyncChanges: { status: 409, why: 'the example organization is local: only replicas sync' },
  updateTagRule: { status: 404, why: "a rule's id is made when the rule is; the example id names none" },
  deleteTagRule: { status: 404, why: "a rule's id is made when the rule is; the example id names none" },
  getReport: { status: 404, why: "a report's id is made when the report is; the example id names none" },
  revokeApiKey: { status: 404, why: "a key's id is made when the key is; the example id names none" },
  updateSavedView: { status: 404, why: "a saved view's id is made when the view is; the example id names none" },
  deleteSavedView: { status: 404, why: "a saved view's id is made when the view is; the example id names none" },
  exportSavedViews: { status: 404, why: "the example asks for one view, by an id that names none (without it, every view is exported)" },
  revokeSession: { status: 404, why: "a session's id is made when the session opens; the example id names none" },
  downloadConsoleAgentConfig: { status: 409, why: 'the console test server makes organizations without an enrollment secret' },
};

/** Operations whose body the document gives no example of (a required property without one): a tool has nothing to send. */
const withoutBodyExample = ['openSession', 'connectOrganization'];

/** Operations run after the others, in this order: what they need is made by earlier ones (the import makes the exception the edit and the revoke name). */
const last = ['updateException', 'revokeException', 'endSession'];

let v1: TestServer;
let app: ConsoleTestServer;
const checker = new AnswerChecker();

beforeAll(async () => {
  const inventory = exampleInventory();
  [v1, app] = await Promise.all([startTestServer([{ slug: 'demo', inventory }]), startConsoleTestServer([{ slug: 'demo', inventory }], { sealer: identitySealer })]);
});
afterAll(async () => {
  await Promise.all([v1?.close(), app?.close()]);
});

/** The example request of an operation, or undefined when its body has no example; `found` gives the path parameters the document has no example of. */
function exampleRequest(operation: DocumentedOperation, found: Record<string, string>): OperationRequest | undefined {
  const request: OperationRequest = { path: {}, query: [] };
  for (const parameter of operation.parameters) {
    const example = parameter.example ?? parameter.schema.example;
    if (parameter.in === 'path') request.path[parameter.name] = example === undefined ? found[parameter.name]! : String(example);
    else if (example !== undefined) request.query.push([parameter.name, String(example)]);
  }
  if (operation.body) {
    const body = operation.body.example ?? exampleOf(operation.body.schema);
    if (body === undefined) return undefined;
    expect(checker.problemsOf(operation.body.schema, body), `${operation.operationId}'s body example`).toEqual([]);
    if (operation.body.mediaType === 'application/json') request.body = JSON.stringify(body);
    else [request.body, request.mediaType] = [String(body), operation.body.mediaType];
  }
  return request;
}

function inOrder(operations: DocumentedOperation[]): DocumentedOperation[] {
  const rank = (operation: DocumentedOperation) => last.indexOf(operation.operationId);
  return [...operations].sort((a, b) => rank(a) - rank(b));
}

describe('every example of the documents, sent as it stands', () => {
  it('/v1/openapi.json: each operation answers its example 2xx, as documented', async () => {
    const document: unknown = await fetch(`${v1.url}/v1/openapi.json`).then((response) => response.json());
    const operations = await documentedOperations(document);
    expect(operations.length).toBeGreaterThan(10);
    for (const operation of operations) {
      const request = exampleRequest(operation, {})!;
      const answer = await sendRequest(v1.url, operation, request, { Authorization: `Bearer ${v1.orgs[0]!.apiKey}` });
      expect(checker.check(operation, answer)).toEqual([]);
      expect(answer.status, `${operation.operationId}: ${answer.text.slice(0, 200)}`).toBeLessThan(300);
    }
  });

  it('/app/openapi.json: each operation answers its example 2xx, as documented, or the documented status that a test server must answer', async () => {
    const document = (await app.app('/openapi.json')).body as unknown;
    const operations = await documentedOperations(document);
    const product = (await app.app('/orgs/demo/software')).body.data[0];
    const version = (await app.app(`/orgs/demo/software/${product.id}`)).body.versions[0];
    const step = (await app.app('/orgs/demo/work-packages')).body.data[0];
    const found = { productId: product.id as string, versionId: version.id as string, changesId: '1', externalId: step.external_id as string };
    const unsent: string[] = [];
    const problems: string[] = [];
    for (const operation of inOrder(operations)) {
      const request = exampleRequest(operation, found);
      if (!request) {
        unsent.push(operation.operationId);
        continue;
      }
      const answer = await sendRequest(app.url, operation, request, { [consoleTokenHeader]: app.consoleToken, origin: app.url });
      problems.push(...checker.check(operation, answer));
      const expected = notSuccessful[operation.operationId];
      const as = expected ? answer.status === expected.status : answer.status < 300;
      if (!as) problems.push(`${operation.operationId} answered ${answer.status}, expected ${expected ? `${expected.status} (${expected.why})` : '2xx'}: ${answer.text.slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
    expect(unsent.sort()).toEqual(withoutBodyExample.sort());
  });
});
