import * as z from 'zod';
import { findingSeverities, osFamilies } from './enums.js';
import { textBounds } from './text-bounds.js';

/**
 * An identifier in UUID format. Any 8-4-4-4-12 hexadecimal form is accepted, whatever its
 * version nibble, so that every id a remote tenant hands out can be looked up.
 */
export const uuidSchema = z.guid().meta({ format: 'uuid', example: '3f0c2a8e-6d1b-4c55-9a0e-2b7f1c9d4e10' });

/** An ISO 8601 date-time; a UTC offset other than `Z` is accepted as remote tenants send it. */
export const dateTimeSchema = z.iso.datetime({ offset: true }).max(textBounds.dateTime).meta({ example: '2026-03-01T12:00:00.000Z' });

/** A CVSS base score, 0 to 10. */
export const cvssScoreSchema = z.number().min(0).max(10);

export const osFamilySchema = z.enum(osFamilies);

/** A string of at most `max` characters (text-bounds.ts). */
export const boundedText = (max: number) => z.string().max(max);

/** A count of items: a whole number of at least 0. */
export const countSchema = z.number().int().min(0);

/** Counts of findings per severity. */
export const severityCountsSchema = z.object(
  Object.fromEntries(findingSeverities.map((severity) => [severity, countSchema])) as Record<(typeof findingSeverities)[number], typeof countSchema>,
);

/** The error body of every non-2xx answer. */
export const errorSchema = z
  .object({ error: z.string().meta({ example: 'Invalid query parameter "limit": must be an integer from 1 to 100' }) })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorSchema>;

/** A field the server refused, with why: the console shows it beside the field. */
export const fieldIssueSchema = z.object({ field: z.string(), message: z.string() }).meta({ id: 'FieldIssue' });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** The error answer of an invalid body: the `{"error"}` of every error, plus each field's issue. */
export const fieldErrorSchema = errorSchema.extend({ issues: z.array(fieldIssueSchema) }).meta({ id: 'FieldError' });
export type FieldErrorBody = z.infer<typeof fieldErrorSchema>;

/**
 * The paginated list envelope of every list, /v1 and the console's alike (DESIGN section 3).
 * @param item the schema of one item
 * @param name the component name of the envelope in the OpenAPI documents
 */
export function listEnvelopeSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      total: z.number().int().min(0).meta({ description: 'Number of items matching the filters.' }),
      limit: z.number().int().min(1).max(100).meta({ description: 'Page size used.' }),
      offset: z.number().int().min(0).meta({ description: 'Offset used.' }),
    })
    .meta({ id: name });
}

/** The envelope of any list, for code that handles every list the same way. */
export interface ListPage<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}
