import fc from 'fast-check';
import type { DocumentedOperation, OperationRequest } from './documented-operations.js';
import type { GeneratedRequest } from './generated-requests.js';
import type { KnownValues } from './schema-arbitraries.js';
import { validRequests } from './generated-requests.js';

const dayMs = 86_400_000;

/**
 * A rule the server applies that a JSON Schema cannot say (a date relative to now, a pair of
 * query parameters, the state of the organization), which the operation states in words
 * instead: `says` is found in its description or its answers'. `keep` turns a request valid by
 * the schema into one that also keeps the rule, so that a valid request is one a tool that read
 * the words would send; `broken` turns such a request into one that breaks it, which is refused.
 */
export interface StatedRule {
  name: string;
  appliesTo(operation: DocumentedOperation): boolean;
  says: RegExp;
  keep(request: OperationRequest, operations: readonly DocumentedOperation[]): fc.Arbitrary<OperationRequest>;
  broken?(request: OperationRequest): fc.Arbitrary<OperationRequest>;
}

const hasQuery = (operation: DocumentedOperation, ...names: string[]) => names.every((name) => operation.parameters.some((p) => p.in === 'query' && p.name === name));
const bodyOf = (request: OperationRequest) => JSON.parse(request.body!) as Record<string, any>;
const withBody = (request: OperationRequest, body: unknown): OperationRequest => ({ ...request, body: JSON.stringify(body) });
const isoIn = (days: number) => new Date(Date.now() + days * dayMs).toISOString();
/**
 * The request with each glob of its tag rule's conditions rewritten by `rewrite`; with `add`,
 * one hostname condition with it added when it has none.
 */
function withConditions(request: OperationRequest, rewrite: (pattern: string) => string, add = false): OperationRequest {
  const body = bodyOf(request);
  const conditions = ((body.conditions as Record<string, unknown>[] | undefined) ?? []).map((condition) =>
    typeof condition.pattern === 'string' ? { ...condition, pattern: rewrite(condition.pattern) } : condition,
  );
  if (add && !conditions.some((condition) => typeof condition.pattern === 'string')) conditions.push({ kind: 'hostname', pattern: rewrite('') });
  return body.conditions === undefined && !add ? request : withBody(request, { ...body, conditions: conditions.slice(-8) });
}

/** Saved views' kinds, each with a query its route takes. */
const savedViewExamples: [string, string][] = [
  ['dashboard', 'criticality=high'],
  ['vulnerability-findings', 'status=any&severity=critical&offset=100'],
  ['endpoints', 'osFamily=linux'],
  ['remediation-plan', 'status=done'],
  ['exceptions', ''],
];

/** The request with these query parameters in place of any it had of those names. */
const withQuery = (request: OperationRequest, given: Record<string, string>): OperationRequest => ({
  ...request,
  query: [...request.query.filter(([name]) => !(name in given)), ...Object.entries(given)],
});

/** The rules the documents state in words; each must be stated where it applies (app-openapi-properties.test.ts). */
export const statedRules: StatedRule[] = [
  {
    name: 'an MDM profile is for macOS only',
    appliesTo: (operation) => hasQuery(operation, 'platform', 'profile'),
    says: /MDM profile and the platform is not macos|only for macos/i,
    keep: (request) =>
      fc.constant({
        ...request,
        query: request.query.some(([name, value]) => name === 'profile' && value.startsWith('mdm'))
          ? request.query.map(([name, value]): [string, string] => [name, name === 'platform' ? 'macos' : value])
          : request.query,
      }),
    broken: (request) => fc.constantFrom('windows', 'linux').map((platform) => withQuery(request, { platform, profile: 'mdm-full' })),
  },
  {
    name: 'a sync is full or a reconcile, not both',
    appliesTo: (operation) => hasQuery(operation, 'full', 'reconcile'),
    says: /or both are true/,
    keep: (request) =>
      fc.constant(request.query.some(([name, value]) => name === 'full' && value === 'true') ? { ...request, query: request.query.filter(([name]) => name !== 'reconcile') } : request),
    broken: (request) => fc.constant(withQuery(request, { full: 'true', reconcile: 'true' })),
  },
  {
    name: "a tag rule's glob holds at most 16 stars and 32 alternatives",
    appliesTo: (operation) => ['createTagRule', 'updateTagRule'].includes(operation.operationId),
    says: /more than 16 `\*` or 32 alternatives/,
    // Generated globs seldom come near: braces and stars beyond the bounds are taken out.
    keep: (request) => fc.constant(withConditions(request, (pattern) => pattern.replace(/[{}]/g, '').replace(/\*/g, (star, at: number, whole: string) => (whole.slice(0, at).split('*').length > 16 ? '' : star)) || 'a')),
    broken: (request) => fc.constantFrom('*'.repeat(17), `{${Array.from({ length: 33 }, (_, i) => i).join(',')}}`).map((pattern) => withConditions(request, () => pattern, true)),
  },
  {
    name: 'an expiry is after now and at most a year ahead',
    appliesTo: (operation) => ['createException', 'updateException'].includes(operation.operationId),
    says: /expiry is (not after now or more than a year ahead|out of bounds)|after now and at most a year ahead/,
    keep: (request) =>
      fc.integer({ min: 1, max: 360 }).map((days) => (bodyOf(request).expires_at === undefined ? request : withBody(request, { ...bodyOf(request), expires_at: isoIn(days) }))),
    // In the past, or a little over a year ahead.
    broken: (request) => fc.oneof(fc.integer({ min: -400, max: -1 }), fc.integer({ min: 367, max: 400 })).map((days) => withBody(request, { ...bodyOf(request), expires_at: isoIn(days) })),
  },
  {
    name: "an exceptions file's dates follow each other, and who goes with when",
    appliesTo: (operation) => operation.operationId === 'importExceptions',
    says: /an expiry at most a year ahead and after its making.*come together/s,
    keep: (request) => {
      const file = bodyOf(request);
      const exceptions = (file.exceptions as Record<string, unknown>[]).map((exception) => {
        const kept: Record<string, unknown> = { ...exception, created_at: isoIn(-30), expires_at: isoIn(30) };
        for (const [at, by] of [['updated_at', 'updated_by'], ['revoked_at', 'revoked_by']] as const) {
          const given = exception[at] !== null || exception[by] !== null;
          Object.assign(kept, given ? { [at]: isoIn(-1), [by]: exception[by] ?? 'someone' } : { [at]: null, [by]: null });
        }
        return kept;
      });
      return fc.constant(withBody(request, { ...file, exceptions }));
    },
  },
  {
    name: "a bulk change's filter is a query of the endpoints list",
    appliesTo: (operation) => operation.operationId === 'bulkUpdateEndpointContext',
    says: /parameter the list does not know.*a value it refuses/is,
    keep: (request, operations) => {
      const list = operations.find((operation) => operation.operationId === 'listConsoleEndpoints')!;
      // A few tags, so that repeated changes stay under the 32 an endpoint may carry, a limit stated too.
      const tags = fc.array(fc.constantFrom('finance', 'servers', 'laptop', 'Lab 2'), { maxLength: 3 });
      return fc.record({ list: validRequests(list, {}), add: tags }).map(({ list, add }) => {
        const body = bodyOf(request);
        return withBody(request, { ...body, filter: new URLSearchParams(list.query).toString(), ...(body.add_tags?.length ? { add_tags: add.length ? add : ['finance'] } : {}) });
      });
    },
    broken: (request) => fc.constantFrom('osfamily=windows', 'notAFilter=1', '%%%', 'limit=1&limit=2').map((filter) => withBody(request, { ...bodyOf(request), filter })),
  },
  {
    name: "a saved view's query is one its view's route takes, and a file names each view once",
    appliesTo: (operation) => ['createSavedView', 'importSavedViews'].includes(operation.operationId),
    says: /checked (by the view's route's own query schema|as `createSavedView` checks them).*(each name once|refused)/s,
    keep: (request) => {
      const filtered = fc.constantFrom(...savedViewExamples).map(([view, query]) => ({ view, query }));
      const body = bodyOf(request);
      if (!Array.isArray(body.views)) return filtered.map((kept) => withBody(request, { ...body, ...kept }));
      const views = body.views as Record<string, unknown>[];
      return fc.array(filtered, { minLength: views.length, maxLength: views.length }).map((kept) =>
        withBody(request, { ...body, views: views.map((view, index) => ({ ...view, ...kept[index], name: `${index} ${String(view.name).trim()}`.slice(0, 100) })) }),
      );
    },
    broken: (request) =>
      fc.constantFrom('notAFilter=1', '%%%', 'criticality=high&criticality=low').map((query) => {
        const body = bodyOf(request);
        const views = body.views as Record<string, unknown>[] | undefined;
        return withBody(request, views ? { ...body, views: [...views, { name: 'broken', view: 'dashboard', query }] } : { ...body, view: 'dashboard', query });
      }),
  },
  {
    name: "a saved view's new query is one its view's route takes",
    appliesTo: (operation) => operation.operationId === 'updateSavedView',
    says: /checked against the view's route/,
    // No filter is one every view takes; a change names a name, a query or both (an empty one is refused, as the description says).
    keep: (request) => {
      const body = bodyOf(request);
      return fc.constant(typeof body.query === 'string' || typeof body.name !== 'string' ? withBody(request, { ...body, query: '' }) : request);
    },
  },
  {
    name: "a report's filter is a query of the findings list, without what the report sets",
    appliesTo: (operation) => operation.operationId === 'createReport',
    says: /unknown, repeated, invalid or report-set parameter/,
    keep: (request, operations) => {
      const list = operations.find((operation) => operation.operationId === 'listConsoleVulnerabilityFindings')!;
      const setByTheReport = new Set(['status', 'overdue', 'sort', 'limit', 'offset']);
      // A saved view's name names none here: a report of a view is tested in reports-api.test.ts;
      // nor do syncs, which need a replica's recorded ones: report-sync-delta.test.ts; nor other
      // organizations, which the test server has none of: report-organizations-api.test.ts.
      const { view: _view, compare_syncs: _syncs, organizations: _organizations, ...body } = bodyOf(request);
      return validRequests(list, {}).map((list) =>
        withBody(request, { ...body, filter: new URLSearchParams(list.query.filter(([name]) => !setByTheReport.has(name))).toString() }),
      );
    },
    broken: (request) => {
      const { view: _view, compare_syncs: _syncs, ...body } = bodyOf(request);
      return fc.constantFrom('Severity=high', 'notAFilter=1', 'sort=risk', 'status=open', 'tag=a&tag=b', 'severity=urgent').map((filter) => withBody(request, { ...body, filter }));
    },
  },
  {
    name: 'a local organization takes only a name',
    appliesTo: (operation) => operation.operationId === 'updateOrganization',
    says: /gives a remote URL or key to a local organization/,
    // The organizations of the test are local.
    keep: (request) => {
      const { remoteUrl: _url, apiKey: _key, ...rest } = bodyOf(request);
      return fc.constant(withBody(request, rest));
    },
    broken: (request) => fc.constant(withBody(request, { ...bodyOf(request), apiKey: 'a-remote-key' })),
  },
  {
    name: 'a loopback server URL needs allowLoopback',
    appliesTo: (operation) => operation.operationId === 'updateAgentSettings',
    says: /a loopback address only with `allowLoopback`/,
    keep: (request) => {
      const body = bodyOf(request);
      // A URL that does not parse is left as it is: the schema's pattern takes none, and the server refuses it.
      const url = typeof body.serverUrl === 'string' && URL.canParse(body.serverUrl.trim()) ? new URL(body.serverUrl.trim()) : undefined;
      const host = url?.hostname ?? '';
      const loopback = /^(localhost|.*\.localhost\.?|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]+\])$/i.test(host);
      return fc.constant(loopback ? withBody(request, { ...body, allowLoopback: true }) : request);
    },
    broken: (request) =>
      fc.constantFrom('https://localhost', 'http://127.0.0.1:8080', 'https://[::1]/agents').map((serverUrl) => withBody(request, { ...bodyOf(request), serverUrl, allowLoopback: false })),
  },
];

/** The valid requests of an operation, each keeping the rules it states in words. */
export function validKeepingStatedRules(
  operation: DocumentedOperation,
  operations: readonly DocumentedOperation[],
  known: KnownValues,
  /** Path parameters only among the known values, where there are some. */
  heldPathsOnly = false,
): fc.Arbitrary<OperationRequest> {
  return statedRules
    .filter((rule) => rule.appliesTo(operation))
    .reduce((valid, rule) => valid.chain((request) => rule.keep(request, operations)), validRequests(operation, known, heldPathsOnly));
}

/** Requests of an operation that break one rule it states in words, each made from one of `bases` (which keep them all). */
export function breakingStatedRules(operation: DocumentedOperation, bases: fc.Arbitrary<OperationRequest>): fc.Arbitrary<GeneratedRequest>[] {
  return statedRules
    .filter((rule) => rule.appliesTo(operation) && rule.broken)
    .map((rule) => bases.chain((request) => rule.broken!(request)).map((request) => ({ request, invalid: `breaks "${rule.name}"` })));
}
