import type { UnevaluatedCriterion } from '../../../contracts/console/coverage.js';
import { endpointFilterSchema, findingFilterSchema, subjectFilterSchema } from '../../../contracts/scope.js';
import { findingSeverities } from '../../../contracts/enums.js';
import type { EffectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import type { CoverageColumns } from '../basics/coverage-columns.js';
import { type CpeTest, cpeField, cpeTest } from './cpe-pattern.js';

/** The stored filters of a scope, JSON as written by the inventory writer. */
export interface StoredScopeFilters {
  subject_filter: string;
  endpoint_filter: string;
  finding_filter: string;
}

/** A scope's filters, ready to be evaluated over the coverage columns of an organization. */
export interface ScopeCondition {
  /** Criteria the replica cannot evaluate: reported, not applied. */
  unevaluated: UnevaluatedCriterion[];
  /** Whether the scope covers the finding at each index of `columns`. */
  bind(columns: CoverageColumns): (index: number) => boolean;
}

const lowered = (values: readonly string[]) => new Set(values.map((value) => value.toLowerCase()));

/**
 * Reads a scope's filters. Every criterion given narrows the scope (criteria are ANDed); the
 * values of one criterion are alternatives (ORed); an empty list is no criterion. A finding
 * whose target or endpoint is missing does not match a criterion on it. Subject criteria are
 * evaluated once per target kind, endpoint criteria once per endpoint, then each finding is
 * checked against its own facts and those two answers. A tag criterion matches the endpoints
 * that carry one of its tags (explicit or by a rule, compared as tags are normalized: trimmed,
 * without case); it is left unevaluated only while no endpoint of the organization carries any
 * tag, since then it could only match nothing.
 */
export function scopeCondition(filters: StoredScopeFilters, context: EffectiveEndpointContext): ScopeCondition {
  const subject = subjectFilterSchema.parse(JSON.parse(filters.subject_filter));
  const endpoint = endpointFilterSchema.parse(JSON.parse(filters.endpoint_filter));
  const finding = findingFilterSchema.parse(JSON.parse(filters.finding_filter));
  const unevaluated: UnevaluatedCriterion[] = [];

  // Targets have types software, os_patch, configuration and service; subjects name three of them.
  const kindTests: ((kinds: CoverageColumns['kinds'], kind: number) => boolean)[] = [];
  if (subject.subject_types?.length) {
    const types = new Set<string>(subject.subject_types);
    kindTests.push((kinds, kind) => kinds.type[kind] !== null && types.has(kinds.type[kind]!));
  }
  if (subject.vendors?.length) {
    const vendors = lowered(subject.vendors);
    kindTests.push((kinds, kind) => kinds.vendor[kind] !== null && vendors.has(kinds.vendor[kind]!.toLowerCase()));
  }
  if (subject.products?.length) {
    const products = lowered(subject.products);
    kindTests.push((kinds, kind) => kinds.product[kind] !== null && products.has(kinds.product[kind]!.toLowerCase()));
  }
  if (subject.cpe_patterns?.length) {
    const tests = subject.cpe_patterns.map(cpeTest);
    const valid = tests.filter((test): test is CpeTest => test !== undefined);
    if (valid.length < tests.length) {
      unevaluated.push({ field: 'subject_filter.cpe_patterns', reason: 'Patterns that are not CPE 2.3 formatted strings match nothing.' });
    }
    kindTests.push((kinds, kind) => {
      if (kinds.type[kind] === null) return false;
      const [vendor, product, version] = [cpeField(kinds.vendor[kind]), cpeField(kinds.product[kind]), cpeField(kinds.version[kind])];
      return valid.some((test) => test(vendor, product, version));
    });
  }

  const endpointTests: ((endpoints: CoverageColumns['endpoints'], key: number) => boolean)[] = [];
  if (endpoint.os_families?.length) {
    const families = new Set<string>(endpoint.os_families);
    endpointTests.push((endpoints, key) => endpoints.osFamily[key] !== null && families.has(endpoints.osFamily[key]!));
  }
  if (endpoint.endpoint_ids?.length) {
    const ids = lowered(endpoint.endpoint_ids);
    endpointTests.push((endpoints, key) => ids.has(endpoints.id[key]!));
  }
  if (endpoint.has_agent !== undefined) {
    const hasAgent = endpoint.has_agent ? 1 : 0;
    endpointTests.push((endpoints, key) => endpoints.hasAgent[key] === hasAgent);
  }
  if (endpoint.tags?.length && !context.hasTags) {
    unevaluated.push({
      field: 'endpoint_filter.tags',
      reason: 'No endpoint of this organization carries a tag yet, so this criterion is left out of the counts: setting tags on endpoints or adding tag rules evaluates it.',
    });
  } else if (endpoint.tags?.length) {
    const tagged = context.endpointsWithAnyTag(endpoint.tags);
    endpointTests.push((endpoints, key) => tagged.has(endpoints.id[key]!));
  }

  // Every finding of this API is a vulnerability.
  const never = Boolean(finding.finding_types?.length && !finding.finding_types.includes('vulnerability'));
  const maxSeverity = finding.min_severity ? findingSeverities.indexOf(finding.min_severity) : findingSeverities.length;
  const minCvss = finding.min_cvss_score;
  const kevOnly = finding.kev_only === true;

  return {
    unevaluated,
    bind(columns) {
      if (never) return () => false;
      const kindOk = kindTests.length ? answers(columns.kinds.type.length, (kind) => kindTests.every((test) => test(columns.kinds, kind))) : undefined;
      const endpointOk = endpointTests.length
        ? answers(columns.endpoints.id.length, (key) => endpointTests.every((test) => test(columns.endpoints, key)))
        : undefined;
      const { severity, kev, cvss, target, targetKind, endpoint: endpointOf } = columns;
      return (index) => {
        if (severity[index]! > maxSeverity) return false;
        if (kevOnly && kev[index] !== 1) return false;
        if (minCvss !== undefined && !(cvss[index]! >= minCvss)) return false;
        if (kindOk) {
          const key = target[index]!;
          if (key < 0 || kindOk[targetKind[key]!] !== 1) return false;
        }
        if (endpointOk) {
          const key = endpointOf[index]!;
          if (key < 0 || endpointOk[key] !== 1) return false;
        }
        return true;
      };
    },
  };
}

function answers(count: number, test: (key: number) => boolean): Uint8Array {
  const result = new Uint8Array(count);
  for (let key = 0; key < count; key++) result[key] = test(key) ? 1 : 0;
  return result;
}
