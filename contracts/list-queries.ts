/**
 * The parts of every list query, as DESIGN section 3 decides them: paging, the filter kinds, the
 * console's `sort` and `q`. Each schema takes the raw single-valued strings of the query and
 * yields the typed value the store runs. The collections' own queries are built from these in
 * collections.ts.
 */
import * as z from 'zod';

const pageSizeMessage = 'must be an integer from 1 to 100';

export const limitSchema = z
  .string()
  .regex(/^\d{1,3}$/, pageSizeMessage)
  .transform(Number)
  .pipe(z.number().int().min(1, pageSizeMessage).max(100, pageSizeMessage))
  .optional()
  .transform((v) => v ?? 50)
  .meta({ type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100.' });

/**
 * The largest offset, 2^53 − 1: every whole number up to it is exact as a JSON number, so the
 * offset a page answers is the one asked for. An offset past the end answers an empty page.
 */
export const maxOffset = Number.MAX_SAFE_INTEGER;
const offsetMessage = `must be an integer from 0 to ${maxOffset}`;

export const offsetSchema = z
  .string()
  .regex(/^\d{1,20}$/, offsetMessage)
  .transform(Number)
  .pipe(z.number().int(offsetMessage).max(maxOffset, offsetMessage))
  .optional()
  .transform((v) => v ?? 0)
  .meta({ type: 'integer', minimum: 0, maximum: maxOffset, default: 0, description: 'Number of items to skip; past the end, the page is empty.' });

const updatedSinceSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
  .optional()
  .meta({
    description:
      'Extension for incremental sync: only items whose updated_at is at or after this time. ' +
      'Not part of the specification.',
  });

/** The paging part of every list query, with the `updatedSince` extension. */
export const pagingShape = { limit: limitSchema, offset: offsetSchema, updatedSince: updatedSinceSchema };

/** The paging part every list query has, parsed. */
export interface Paging {
  limit: number;
  offset: number;
  updatedSince?: string | undefined;
}

/**
 * How a filter parameter matches, which tells the store how to compare its column: `choice`
 * and `uuid` by equality (a uuid in lower case), `boolean` as a 0/1 flag, `cve` through the
 * CVE's identifier, case-insensitively; `tag` through the endpoint's context (console only).
 */
export type FilterKind = 'choice' | 'boolean' | 'uuid' | 'cve' | 'tag';

/** A filter of a list: its kind and the schema of its query parameter. */
export interface Filter<K extends FilterKind = FilterKind, S extends z.ZodType = z.ZodType> {
  kind: K;
  schema: S;
  /** The values a `choice` filter accepts, for the console's controls. */
  values?: readonly string[];
}

/** A filter that takes one of `values`. */
export function choiceFilter<const T extends readonly [string, ...string[]]>(values: T) {
  return {
    kind: 'choice',
    values,
    schema: z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional(),
  } as const satisfies Filter;
}

/** A filter that takes `true` or `false`. */
export const booleanFilter = {
  kind: 'boolean',
  schema: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .meta({ type: 'boolean' }),
} as const satisfies Filter;

/** A filter by another resource's id. */
export const uuidFilter = {
  kind: 'uuid',
  schema: z.guid({ error: 'must be a UUID' }).optional().meta({ format: 'uuid' }),
} as const satisfies Filter;

/** A filter by CVE identifier, exact but case-insensitive. */
export const cveFilter = {
  kind: 'cve',
  schema: z.string().max(64, 'must be at most 64 characters').optional().meta({
    description: 'CVE identifier, matched exactly but case-insensitively.',
  }),
} as const satisfies Filter;

/**
 * A filter by one of the endpoint's tags (set on it or given by a tag rule), compared without
 * case. Of the console only: tags are local context, never in /v1.
 */
export const tagFilter = {
  kind: 'tag',
  // A blank tag is no endpoint's tag: it selects nothing, as the document's plain string allows.
  schema: z.string().trim().max(64, 'must be at most 64 characters').optional().meta({ example: 'finance' }),
} as const satisfies Filter;

/**
 * A filter of the console's lists only, never of /v1: a flag (`overdue=true`), given or absent;
 * or a filter of the endpoints' list applied to the endpoint each item names (`osFamily=windows`
 * on findings: {@link byEndpoint}). The store resolves each to the set of rows it keeps
 * (console-queries.ts), not to SQL.
 */
export interface ConsoleFilter<S extends z.ZodType = z.ZodType> {
  /** `intel`: by the imported exploit intelligence of the item's CVE (contracts/console/exploit-intel.ts). */
  kind: 'flag' | 'endpoint' | 'intel';
  schema: S;
  /** For an `intel` filter: how the filter bar asks it (a `choice` among {@link ConsoleFilter.values}, a calendar `date`). */
  control?: 'text' | 'boolean' | 'choice' | 'date';
  /** For an `intel` filter asked by a `choice`: its values, the schema's enum. */
  values?: readonly string[];
  /** For an `endpoint` filter: the filter of the endpoints' list it applies, whose kind its control has. */
  endpointFilter?: Filter;
}

/**
 * A console filter that keeps the items whose endpoint the endpoints' `filter` keeps, under the
 * same parameter: an item whose endpoint the replica does not hold (or that names none) is left
 * out. On the endpoints' list itself, the endpoint is the item (its filters by local context:
 * `tag`, `criticality`).
 */
export function byEndpoint<const F extends Filter>(filter: F, description: string) {
  return { kind: 'endpoint', endpointFilter: filter, schema: filter.schema.meta({ description }) as F['schema'] } as const satisfies ConsoleFilter;
}

/** A console filter given as `true`, or absent. */
export const flagFilter = {
  kind: 'flag',
  schema: z
    .enum(['true'], { error: 'must be true' })
    .transform(() => true as const)
    .optional()
    .meta({ type: 'boolean', enum: [true] }),
} as const satisfies ConsoleFilter;

/**
 * How a sort key compares: `text` without case (names), `value` as the column holds it. NULLs
 * come first ascending (SQLite's rule), hence last descending; ties are broken by id.
 */
export type SortKind = 'text' | 'value';

/** An order of a console list: a column, either way; ties are broken by id, in the same direction. */
export interface ListSort<K extends string = string> {
  key: K;
  descending: boolean;
}

/** The key of the default order, `created_at` then id, which every list has. */
export const defaultSortKey = 'created_at';

/**
 * `sort` of a console list: one of `keys`, ascending, or with a leading `-` descending.
 * Absent, the list is in its default order: `created_at` (then id) ascending, unless `fallback`
 * names another (`-risk_score`).
 */
export function sortSchema<const K extends string>(keys: readonly K[], fallback: K | `-${K}` | typeof defaultSortKey = defaultSortKey) {
  const allowed = keys.flatMap((key) => [key, `-${key}`]);
  return z
    .string()
    .optional()
    .refine((value) => value === undefined || allowed.includes(value), { error: `must be one of ${allowed.join(', ')}` })
    .transform((value): ListSort<K> => {
      const text = value ?? fallback;
      return { key: text.replace(/^-/, '') as K, descending: text.startsWith('-') };
    })
    .meta({ type: 'string', enum: allowed, description: 'A column, with a leading "-" for descending; ties by id.' });
}

/** Free text: a case-insensitive substring; each collection says which fields it searches. */
export const textSchema = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  .optional()
  .transform((v) => v || undefined)
  .meta({ type: 'string', maxLength: 100 });
