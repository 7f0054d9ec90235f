import { z } from 'zod';
import { dateTimeSchema, uuidSchema } from '../common.js';
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

/**
 * `POST /app/organizations` body, and what `orgs connect` passes: a replica of a remote tenant.
 * `remoteUrl` comes out normalized (no trailing slash); a missing or blank name is the slug.
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
    remoteUrl: z
      .string({ error: 'is required' })
      .trim()
      .transform((text, context) => {
        const url = parseRemoteUrl(text);
        if (!url) context.addIssue({ code: 'custom', message: 'must be an http or https URL without credentials, query or fragment' });
        return url ?? z.NEVER;
      })
      .meta({
        description: 'The base URL of the remote tenant: http or https, without credentials, query or fragment.',
        example: 'https://inventory.example.org',
      }),
    apiKey: z
      .string({ error: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(1024, 'must be at most 1024 characters')
      .regex(/^\S*$/, 'must not contain white space')
      .meta({ description: "An API key of the remote tenant: it is checked, then sealed; it is never shown again." }),
  })
  .meta({ id: 'ConnectOrganization' });
export type ConnectOrganizationBody = z.input<typeof connectOrganizationBodySchema>;
