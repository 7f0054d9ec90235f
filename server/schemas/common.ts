import { z } from './zod.js';

/**
 * An identifier in UUID format. Any 8-4-4-4-12 hexadecimal form is accepted, whatever its
 * version nibble, so that every id a remote tenant hands out can be looked up.
 */
export const uuidSchema = z.guid().openapi({ format: 'uuid', example: '3f0c2a8e-6d1b-4c55-9a0e-2b7f1c9d4e10' });

/** An ISO 8601 date-time; a UTC offset other than `Z` is accepted as remote tenants send it. */
export const dateTimeSchema = z.iso.datetime({ offset: true }).openapi({ example: '2026-03-01T12:00:00.000Z' });

/** A CVSS base score, 0 to 10. */
export const cvssScoreSchema = z.number().min(0).max(10);

export const osFamilies = ['macos', 'windows', 'linux', 'other'] as const;
export const osFamilySchema = z.enum(osFamilies);

/** The error body of every non-2xx answer. */
export const errorSchema = z
  .object({ error: z.string().openapi({ example: 'Invalid query parameter "limit": must be an integer from 1 to 100' }) })
  .openapi('Error');
export type ErrorBody = z.infer<typeof errorSchema>;

/**
 * The paginated list envelope shared by all four lists.
 * @param item the schema of one item
 * @param name the component name of the envelope in the OpenAPI document
 */
export function listEnvelopeSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      total: z.number().int().min(0).openapi({ description: 'Number of items matching the filters.' }),
      limit: z.number().int().min(1).max(100).openapi({ description: 'Page size used.' }),
      offset: z.number().int().min(0).openapi({ description: 'Offset used.' }),
    })
    .openapi(name);
}

/** The envelope of any list, for code that handles all four the same way. */
export interface ListPage<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}
