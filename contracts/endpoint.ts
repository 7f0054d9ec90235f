import { dateTimeSchema, osFamilySchema, uuidSchema } from './common.js';
import { z } from 'zod';

export const operatingSystemSchema = z
  .object({
    name: z.string(),
    version: z.string().nullable(),
    family: osFamilySchema,
    vendor: z.string().nullable(),
    architecture: z.string().nullable(),
  })
  .meta({ id: 'OperatingSystem' });

/** Endpoint, section 2.1 of the specification. Every field is present, null where unknown. */
export const endpointSchema = z
  .object({
    id: uuidSchema,
    hostname: z.string(),
    ip: z.string().nullable(),
    mac_address: z.string().nullable(),
    operating_system: operatingSystemSchema,
    agent_id: uuidSchema.nullable(),
    agent_version: z.string().nullable(),
    created_at: dateTimeSchema,
    updated_at: dateTimeSchema,
  })
  .meta({ id: 'Endpoint' });
export type Endpoint = z.infer<typeof endpointSchema>;

/**
 * What a remote tenant may send for an endpoint: the optional fields of the specification
 * may be absent (they become null) and unknown fields are dropped.
 */
export const endpointInputSchema = endpointSchema.extend({
  operating_system: operatingSystemSchema.extend({
    version: z.string().nullish().transform((v) => v ?? null),
    vendor: z.string().nullish().transform((v) => v ?? null),
    architecture: z.string().nullish().transform((v) => v ?? null),
  }),
});
