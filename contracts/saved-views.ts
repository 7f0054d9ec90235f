/**
 * Saved views (issue 40, item 1): a console view's own filters, its URL's query, kept under a
 * name per organization, listed, renamed, deleted, and shared as a small JSON file. A view's
 * query is checked, when it is saved, by the schema its route parses it with, so that a saved
 * view never holds a filter its route refuses; a report (issue 40, item 2) reads its filters
 * back through {@link parseSavedViewQuery}.
 */
import * as z from 'zod';
import { collectionBasics } from './collection-basics.js';
import { type CollectionName, collectionNames, collections } from './collections.js';
import { countSchema, dateTimeSchema, uuidSchema } from './common.js';
import { dashboardQuerySchema } from './console/dashboard.js';
import { remediationPerformanceQuerySchema } from './console/deadlines.js';
import { exceptionListQuerySchema } from './console/exceptions.js';
import { type SavedViewKind, anyValue, savedViewKinds, savedViewLimits, savedViewNameKey, savedViewsFileFormat, viewPositionParameters } from './console/saved-view-basics.js';
import { remediationPlanQuerySchema, softwareListQuerySchema } from './console/software.js';
import { workPackageQuerySchema } from './console/work-packages.js';
import { QueryStringError, maxQueryLength, parseQueryString } from './query-string.js';

/**
 * The filters of a collection's console list a view saves: its route's query without the page
 * (`limit`, `offset`); a filter the list gives a default (the findings' open status) also
 * takes {@link anyValue}, which lifts that default in the console's URL.
 */
function listFilterSchema(collection: CollectionName): z.ZodObject {
  const { limit: _limit, offset: _offset, ...shape } = collections[collection].consoleQuery.shape as Record<string, z.ZodType>;
  const basics = collectionBasics[collection];
  const defaults: Record<string, string> = 'defaultView' in basics ? basics.defaultView.query : {};
  for (const name of Object.keys(defaults)) {
    // `any` parses as no filter, which is what it asks for; any other value is the filter's own to refuse.
    if (name !== 'sort') shape[name] = z.preprocess((value) => (value === anyValue ? undefined : value), shape[name]!);
  }
  return z.object(shape);
}

/** Each view's filter schema: the one its route parses its query with, without the page. */
export const savedViewFilterSchemas: Record<SavedViewKind, z.ZodObject> = {
  dashboard: dashboardQuerySchema,
  ...(Object.fromEntries(collectionNames.map((name) => [collectionBasics[name].path, listFilterSchema(name)])) as Record<(typeof collectionBasics)[CollectionName]['path'], z.ZodObject>),
  software: softwareListQuerySchema.omit({ limit: true, offset: true }),
  // The plan's steps by ticket status are its work packages' filter, in the same URL.
  'remediation-plan': remediationPlanQuerySchema.extend({ status: workPackageQuerySchema.shape.status }),
  'remediation-performance': remediationPerformanceQuerySchema,
  exceptions: exceptionListQuerySchema,
};

/**
 * A saved view's query as stored: without a leading `?`, empty parts, and the URL's position in
 * its table ({@link viewPositionParameters}). Its parts stay as given, encoding included, for
 * {@link savedViewQueryIssue} to check: what its view's schema refuses is refused, not dropped.
 */
export function canonicalViewQuery(query: string): string {
  const parts = (query.startsWith('?') ? query.slice(1) : query).split('&');
  const isPosition = (part: string) => (viewPositionParameters as readonly string[]).includes(part.split('=', 1)[0]!);
  return parts.filter((part) => part !== '' && !isPosition(part)).join('&');
}

/** Why a view of `view` cannot hold `query` (a canonical query string), or undefined when it can. */
export function savedViewQueryIssue(view: SavedViewKind, query: string): string | undefined {
  try {
    parseQueryString(query, savedViewFilterSchemas[view], 'refuse');
    return undefined;
  } catch (error) {
    if (error instanceof QueryStringError) return error.message;
    throw error;
  }
}

/** The filters of a saved view as its route parses them (a report's selection). */
export function parseSavedViewQuery(view: SavedViewKind, query: string): Record<string, unknown> {
  return parseQueryString(query, savedViewFilterSchemas[view], 'refuse');
}

/** What a name may not hold: control characters and invisible format ones (a bidirectional override, a zero-width space). */
const unprintable = '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb';
/**
 * A name that is not blank and holds no {@link unprintable} character, matched in linear time (the
 * two classes are disjoint). Spelt out, not `\p{C}`: the OpenAPI document's pattern is read by
 * tools without Unicode property escapes; it also holds for the name before it is trimmed.
 */
const printableName = new RegExp(`^\\s*[^\\s${unprintable}][^${unprintable}]*$`);

/** A view's name: trimmed, 1 to 100 printable characters (no control character, no invisible format character such as a bidirectional override). */
export const savedViewNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(savedViewLimits.name, `must be at most ${savedViewLimits.name} characters`)
  .regex(printableName, 'must be printable: no control or invisible format character')
  .meta({ description: 'Unique in the organization, without case.', example: 'Internet-facing, critical' });

export const savedViewKindSchema = z
  .enum(savedViewKinds, { error: `must be one of ${savedViewKinds.join(', ')}` })
  .meta({ description: "The console view: the section of its URL (the dashboard's is `dashboard`)." });

/** A query as a body gives it: a leading `?` and the table's position (`offset`, `row`, `selected`) are dropped. */
const givenQuerySchema = z
  .string()
  .max(maxQueryLength, `must be at most ${maxQueryLength} characters`)
  .transform(canonicalViewQuery)
  .meta({
    description: "The view's filters as its URL's query string, e.g. `status=open&criticality=critical`; checked by the view's route's own query schema (unknown parameters refused).",
    example: 'status=open&criticality=critical&tag=internet-facing',
  });

/** Adds the issue of a query its view refuses, on the field `query`. */
function checkViewQuery(value: { view: SavedViewKind; query: string }, context: z.RefinementCtx): void {
  const issue = savedViewQueryIssue(value.view, value.query);
  if (issue) context.addIssue({ code: 'custom', path: ['query'], message: issue });
}

/** A saved view as `/app` answers it, and as a report reads it. */
export const savedViewSchema = z
  .object({
    id: uuidSchema,
    name: savedViewNameSchema,
    view: savedViewKindSchema,
    query: z.string().meta({ description: "The view's filters as a query string (empty for none)." }),
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
  })
  .meta({ id: 'SavedView' });
export type SavedView = z.output<typeof savedViewSchema>;

/** `GET /app/orgs/:slug/saved-views`: by name, without case. */
export const savedViewListSchema = z.object({ data: z.array(savedViewSchema) }).meta({ id: 'SavedViewList' });
export type SavedViewList = z.output<typeof savedViewListSchema>;

/** `POST /app/orgs/:slug/saved-views` body. */
export const createSavedViewBodySchema = z
  .strictObject({ name: savedViewNameSchema, view: savedViewKindSchema, query: givenQuerySchema.default('') })
  .superRefine(checkViewQuery)
  .meta({ id: 'CreateSavedView' });
export type CreateSavedViewBody = z.output<typeof createSavedViewBodySchema>;

/** `PATCH /app/orgs/:slug/saved-views/:viewId` body: a new name, a new query, or both; its view stays. */
export const updateSavedViewBodySchema = z
  .strictObject({ name: savedViewNameSchema.optional(), query: givenQuerySchema.optional() })
  .refine((body) => body.name !== undefined || body.query !== undefined, { message: 'must set name, query or both', path: ['body'] })
  .meta({ id: 'UpdateSavedView' });
export type UpdateSavedViewBody = z.output<typeof updateSavedViewBodySchema>;

/** A view in a file: what another installation needs to make it again (it gets an id of its own). */
const savedViewRecordSchema = z.strictObject({ name: savedViewNameSchema, view: savedViewKindSchema, query: givenQuerySchema }).superRefine(checkViewQuery);

/**
 * A views file (`GET …/saved-views/export`), what an import takes: a format name and version,
 * then the views, at most {@link savedViewLimits.perFile}, each name once.
 */
export const savedViewsFileSchema = z
  .strictObject({
    format: z.literal(savedViewsFileFormat.format, { error: `must be "${savedViewsFileFormat.format}"` }),
    version: z.literal(savedViewsFileFormat.version, { error: `must be ${savedViewsFileFormat.version}: this version of the console reads no other` }),
    exported_at: dateTimeSchema,
    organization: z.strictObject({ slug: z.string().max(100), name: z.string().max(200) }).meta({ description: 'Where it was exported from; informative.' }),
    views: z.array(savedViewRecordSchema).max(savedViewLimits.perFile, `must hold at most ${savedViewLimits.perFile} views`),
  })
  .superRefine((file, context) => {
    const seen = new Map<string, number>();
    file.views.forEach((view, index) => {
      const key = savedViewNameKey(view.name);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else context.addIssue({ code: 'custom', path: ['views', index, 'name'], message: `is the name of views.${first} too (names are unique without case)` });
    });
  })
  .meta({ id: 'SavedViewsFile' });
export type SavedViewsFile = z.output<typeof savedViewsFileSchema>;

/** The views file of `views` of an organization, as an export writes it and an import takes it. */
export function savedViewsFileOf(organization: { slug: string; name: string }, views: readonly SavedView[], exportedAt: string): SavedViewsFile {
  return {
    ...savedViewsFileFormat,
    exported_at: exportedAt,
    organization: { slug: organization.slug, name: organization.name },
    views: views.map(({ name, view, query }) => ({ name, view, query })),
  };
}

/** `POST /app/orgs/:slug/saved-views/import` answer. */
export const savedViewImportResultSchema = z
  .object({ created: countSchema.meta({ description: 'The views made, each with an id of its own.' }), data: z.array(savedViewSchema) })
  .meta({ id: 'SavedViewImportResult' });
export type SavedViewImportResult = z.output<typeof savedViewImportResultSchema>;

/** `GET /app/orgs/:slug/saved-views/export` query: one view, or every view of the organization. */
export const savedViewExportQuerySchema = z.object({
  id: uuidSchema.optional().meta({ description: "Only this view; the organization's every view when absent." }),
});
