import { boundedText, dateTimeSchema, osFamilySchema, uuidSchema } from './common.js';
import * as z from 'zod';
import { textBounds } from './text-bounds.js';

const short = boundedText(textBounds.short);

export const operatingSystemSchema = z
  .object({
    name: short,
    version: short.nullable(),
    family: osFamilySchema,
    vendor: short.nullable(),
    architecture: short.nullable(),
  })
  .meta({ id: 'OperatingSystem' });

/** Endpoint, section 2.1 of the specification. Every field is present, null where unknown. */
export const endpointSchema = z
  .object({
    id: uuidSchema,
    hostname: boundedText(textBounds.hostname),
    ip: boundedText(textBounds.address).nullable(),
    mac_address: boundedText(textBounds.address).nullable(),
    operating_system: operatingSystemSchema,
    agent_id: uuidSchema.nullable(),
    agent_version: short.nullable(),
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
    version: short.nullish().transform((v) => v ?? null),
    vendor: short.nullish().transform((v) => v ?? null),
    architecture: short.nullish().transform((v) => v ?? null),
  }),
});
