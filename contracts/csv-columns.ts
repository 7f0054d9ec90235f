import type * as z from 'zod';

/** A CSV column: its header and how it is read from an item's JSON. */
export interface CsvColumn {
  header: string;
  value: (item: Record<string, unknown>) => unknown;
}

/** The column of a field, under its own name. */
export const field = (name: string): CsvColumn => ({ header: name, value: (item) => item[name] });

/** The columns `name.sub` of an object field, one per field of its schema. */
export const spread = (name: string, shape: z.ZodRawShape): CsvColumn[] =>
  Object.keys(shape).map((sub) => ({
    header: `${name}.${sub}`,
    value: (item: Record<string, unknown>) => (item[name] as Record<string, unknown> | undefined)?.[sub],
  }));
