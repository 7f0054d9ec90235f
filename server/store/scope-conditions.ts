import type { SqlValue } from 'sql.js';
import type { UnevaluatedCriterion } from '../schemas/console-api.js';
import { endpointFilterSchema, findingFilterSchema, subjectFilterSchema } from '../schemas/scope.js';
import { findingSeverities } from '../schemas/vulnerability-finding.js';

/**
 * The FROM clause a scope condition is evaluated over: each finding (`f`) with its remediation
 * target (`t`) and endpoint (`e`), either of which may be missing. Findings are read in table
 * (seq) order: a condition touches most rows anyway, and an index walk would add a random
 * lookup per row and, for paging, a sort of every match.
 */
export const coveredFindingsFrom = `
  findings f NOT INDEXED
  LEFT JOIN remediation_targets t ON t.org_id = f.org_id AND t.id = f.remediation_target_id
  LEFT JOIN endpoints e ON e.org_id = f.org_id AND e.id = f.endpoint_id`;

/** A scope's filters as one SQL condition over {@link coveredFindingsFrom}. */
export interface ScopeCondition {
  /** Never NULL: a finding whose target or endpoint is missing does not match what needs it. */
  sql: string;
  params: SqlValue[];
  unevaluated: UnevaluatedCriterion[];
}

/** The stored filters of a scope, JSON as written by the inventory writer. */
export interface StoredScopeFilters {
  subject_filter: string;
  endpoint_filter: string;
  finding_filter: string;
}

/**
 * The target's CPE 2.3 name as a scope's `cpe_patterns` are matched against it:
 * `cpe:2.3:a:<vendor>:<product>:<version>`, lowercased, spaces as underscores, `-` (CPE's
 * "not applicable") for a missing field.
 */
const targetCpe = `'cpe:2.3:a:' || lower(replace(coalesce(t.vendor, '-'), ' ', '_')) || ':' ||
  lower(replace(coalesce(t.product, '-'), ' ', '_')) || ':' || lower(replace(coalesce(t.version, '-'), ' ', '_'))`;

/**
 * A CPE pattern as a GLOB over {@link targetCpe}, or undefined when it is not a CPE 2.3
 * formatted string. Its part, vendor, product and version are compared (absent ones match
 * anything); `*` matches any run of characters; the later components (update, edition, ...)
 * are ignored because targets do not carry them.
 */
function cpeGlob(pattern: string): string | undefined {
  const components = pattern.trim().toLowerCase().split(/(?<!\\):/);
  if (components[0] !== 'cpe' || components[1] !== '2.3' || components.length < 3) return undefined;
  const wanted = [2, 3, 4, 5].map((index) => components[index] || '*');
  // Backslash escapes of CPE become plain characters; GLOB's own specials are made literal.
  const literal = wanted.map((part) => part.replace(/\\(.)/g, '$1').replace(/[[?]/g, (c) => `[${c}]`));
  return `cpe:2.3:${literal.join(':')}`;
}

const lower = (values: readonly string[]) => values.map((value) => value.toLowerCase());

/** A clause `column IN (?, ?, ...)` with its parameters. */
function inList(column: string, values: readonly SqlValue[]): [string, SqlValue[]] {
  return [`${column} IN (${values.map(() => '?').join(', ')})`, [...values]];
}

/**
 * Translates a scope's filters into a condition on findings. Every criterion given narrows the
 * scope (criteria are ANDed); the values of one criterion are alternatives (ORed); an empty
 * list is no criterion. Criteria the replica cannot evaluate are reported, not applied.
 */
export function scopeCondition(filters: StoredScopeFilters): ScopeCondition {
  const subject = subjectFilterSchema.parse(JSON.parse(filters.subject_filter));
  const endpoint = endpointFilterSchema.parse(JSON.parse(filters.endpoint_filter));
  const finding = findingFilterSchema.parse(JSON.parse(filters.finding_filter));
  const terms: string[] = [];
  const params: SqlValue[] = [];
  const unevaluated: UnevaluatedCriterion[] = [];
  const add = ([term, values]: [string, SqlValue[]]) => {
    terms.push(term);
    params.push(...values);
  };

  // Targets have types software, os_patch, configuration and service; subjects name three of them.
  if (subject.subject_types?.length) add(inList('t.target_type', subject.subject_types));
  if (subject.vendors?.length) add(inList('lower(t.vendor)', lower(subject.vendors)));
  if (subject.products?.length) add(inList('lower(t.product)', lower(subject.products)));
  if (subject.cpe_patterns?.length) {
    const globs = subject.cpe_patterns.map(cpeGlob);
    const valid = globs.filter((glob): glob is string => glob !== undefined);
    if (valid.length < globs.length) {
      unevaluated.push({ field: 'subject_filter.cpe_patterns', reason: 'Patterns that are not CPE 2.3 formatted strings match nothing.' });
    }
    add([valid.length ? `(${valid.map(() => `${targetCpe} GLOB ?`).join(' OR ')})` : '0', valid]);
  }

  if (endpoint.os_families?.length) add(inList('e.os_family', endpoint.os_families));
  if (endpoint.endpoint_ids?.length) add(inList('f.endpoint_id', lower(endpoint.endpoint_ids)));
  if (endpoint.has_agent !== undefined) add(['e.has_agent = ?', [endpoint.has_agent ? 1 : 0]]);
  if (endpoint.tags?.length) {
    unevaluated.push({
      field: 'endpoint_filter.tags',
      reason: 'Endpoints carry no tags in the API, so this criterion cannot be evaluated; it is left out of the counts.',
    });
  }

  // Every finding of this API is a vulnerability.
  if (finding.finding_types?.length && !finding.finding_types.includes('vulnerability')) add(['0', []]);
  if (finding.min_severity) {
    add(inList('f.severity', findingSeverities.slice(0, findingSeverities.indexOf(finding.min_severity) + 1)));
  }
  if (finding.min_cvss_score !== undefined) add(['f.cvss_score >= ?', [finding.min_cvss_score]]);
  if (finding.kev_only) add(['f.is_kev = 1', []]);

  const sql = terms.length ? `coalesce((${terms.join(' AND ')}), 0)` : '1';
  return { sql, params, unevaluated };
}
