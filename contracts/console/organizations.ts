import * as z from 'zod';
import { dateTimeSchema, uuidSchema } from '../common.js';
import { baseUrlPattern } from '../address-patterns.js';
import { organizationKinds } from '../enums.js';
import { parseRemoteUrl } from '../remote-url.js';

/** An organization as the console lists it: never a secret, never the internal row id. */
export const consoleOrganizationSchema = z
  .object({
    id: uuidSchema,
    slug: z.string(),
    name: z.string(),
    kind: z.enum(organizationKinds),
    isDemo: z.boolean(),
    remoteUrl: z.string().nullable(),
    hasEnrollmentSecret: z.boolean(),
    createdAt: dateTimeSchema,
  })
  .meta({ id: 'Organization' });
export type ConsoleOrganization = z.infer<typeof consoleOrganizationSchema>;

/** `GET /app/organizations`. */
export const organizationListSchema = z.object({ data: z.array(consoleOrganizationSchema) }).meta({ id: 'OrganizationList' });

const slugRegex = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** Path parameter of an organization. */
export const slugParamSchema = z
  .string()
  .regex(slugRegex, 'is not an organization slug')
  .meta({ description: "The organization's slug: 1 to 40 lowercase letters, digits and inner hyphens.", example: 'demo' });

/** A remote tenant's base URL as typed: normalized (no trailing slash, no `/v1`), or the field's issue. */
const remoteUrlField = z
  .string({ error: 'is required' })
  .trim()
  .transform((text, context) => {
    const url = parseRemoteUrl(text);
    if (!url) context.addIssue({ code: 'custom', message: 'must be an http or https URL without credentials, query or fragment' });
    return url ?? z.NEVER;
  })
  .meta({
    description: 'The base URL of the remote tenant: http or https, without credentials, query or fragment; a trailing `/v1` is dropped.',
    example: 'https://inventory.example.org',
    // What parseRemoteUrl takes, as a tool generating values from the document reads it.
    pattern: baseUrlPattern.source,
  });

/** A remote tenant's API key as typed. */
const apiKeyField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(1024, 'must be at most 1024 characters')
  .regex(/^\S*$/, 'must not contain white space');

/**
 * `POST /app/organizations` body, and what `orgs connect` passes: a replica of a remote tenant.
 * `remoteUrl` comes out normalized (no trailing slash, no `/v1`); a missing or blank name is the slug.
 */
export const connectOrganizationBodySchema = z
  .strictObject({
    slug: z
      .string({ error: 'is required' })
      .trim()
      .regex(slugRegex, 'must be 1 to 40 lowercase letters, digits and inner hyphens')
      .meta({ description: "The replica's slug here: 1 to 40 lowercase letters, digits and inner hyphens.", example: 'acme' }),
    name: z
      .string()
      .trim()
      .max(200, 'must be at most 200 characters')
      .nullish()
      .transform((v) => v || undefined)
      .meta({ description: 'Its display name; the slug when absent or blank.', example: 'Acme Corp' }),
    remoteUrl: remoteUrlField,
    apiKey: apiKeyField.meta({ description: 'An API key of the remote tenant: it is checked, then sealed; it is never shown again.' }),
  })
  .meta({ id: 'ConnectOrganization' });
export type ConnectOrganizationBody = z.input<typeof connectOrganizationBodySchema>;

/**
 * `PATCH /app/orgs/:slug` body, and what `orgs update` passes: what changes, each field optional.
 * A replica's new URL or key is checked against the remote before anything is saved; a new URL
 * needs a new key with it (the stored key never goes to another address); a local organization
 * has neither, only its name.
 */
export const updateOrganizationBodySchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, 'must not be blank')
      .max(200, 'must be at most 200 characters')
      .optional()
      .meta({ description: 'Its new display name.', example: 'Acme Corp' }),
    remoteUrl: remoteUrlField.optional(),
    apiKey: apiKeyField
      .optional()
      .meta({
        description:
          'A new API key of the remote tenant, for a rotated key or a new address: it is checked, then sealed; it is never shown again. ' +
          'Absent, the key stays, which only the address it was given for may have: a new `remoteUrl` needs it.',
      }),
  })
  .meta({ id: 'UpdateOrganization' });
export type UpdateOrganizationBody = z.input<typeof updateOrganizationBodySchema>;
