import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodRawShape } from 'zod';
import * as z from 'zod';
import { slugParamSchema } from '../../../contracts/console/organizations.js';
import { consoleTokenHeader, scriptTokenHeader } from '../app/require-console-token.js';
import { type Responses, errorResponse, guardAndServerErrors, mergeResponses } from './responses.js';

/** A security scheme of /app: this run's console token, which local tools never see. */
export const consoleTokenSecurityScheme = {
  name: 'consoleToken',
  scheme: {
    type: 'apiKey',
    in: 'header',
    name: consoleTokenHeader,
    description:
      'The console token of this run of the server, which the desktop app hands to its window; nothing else is taken in this header. ' +
      "A browser sends its session in a cookie instead, set by opening a console link (`POST /app/session`); with the cookie, a request that changes something must carry this server's Origin.",
  },
} as const;

/** A security scheme of /app: a script's own token, revocable, made by `remediation-console sessions create-script-token`. */
export const scriptTokenSecurityScheme = {
  name: 'scriptToken',
  scheme: {
    type: 'apiKey',
    in: 'header',
    name: scriptTokenHeader,
    description:
      'A script token (`rcs_…`), printed once by `remediation-console sessions create-script-token --name NAME`, listed and revoked with the sessions (`listSessions`, `revokeSession`).',
  },
} as const;

/** The groups of the console's operations, in the order a reader meets them. */
export const appTags = {
  Session: "What the console needs to know about this server; signing out; the browser sessions and script tokens.",
  Organizations: 'The organizations of the store: listing, connecting and disconnecting replicas of remote tenants.',
  Sync: "Replicas' syncs with their remote tenants: status, progress, sync now, and what each sync changed.",
  Inventory: "An organization's collections, as /v1 answers them, with the console's sort and free-text search.",
  'Endpoint context':
    "Tags and a criticality per endpoint, and tag rules that tag endpoints by hostname, IP, OS or agent: this installation's own context, kept across syncs, never shown by /v1.",
  Coverage: 'The dashboard, the coverage of a scope and the coverage gaps.',
  Software: 'Remediation targets grouped by product and version, with their exposure, and the remediation plan.',
  Exceptions: 'Accepted risks: a CVE everywhere or on chosen endpoints, or one finding, left out of the gaps and the risk figures until an expiry.',
  Deadlines:
    "The organization's deadline policy (days per severity, BOD 26-04's fix-by dates, or the KEV due date), its fix-by settings, the findings due soon, and how the organization's findings keep to their deadlines.",
  'API keys': "An organization's local API keys, for local tools.",
  'Saved views': "A console view's filters (its URL's query) under a name per organization: listed, renamed, deleted, and shared as a small JSON file.",
  Exports: 'Every item of a filtered list, as CSV.',
  'Work packages': "The remediation plan's steps as tickets for IT (Jira CSV, ServiceNow import-set CSV, JSON), their owner and note, the status read back from the ticket system's export, and the check after each sync.",
  'Agent configuration': "An organization's agent settings, what its agent configuration files hold, and the signed files of any organization.",
  Reports:
    'Reports of a filter of the findings list: made once, signed with the organization\'s signing identity (a detached CMS signature) and kept frozen, with the change since the previous report of the same filter.',
  'Threat intelligence':
    "Exploit intelligence imported from files: FIRST's EPSS scores, the KEV catalogs of CISA and ENISA and CISA's Vulnrichment records, local to this installation, kept across syncs, never shown by /v1.",
} as const;

/** An operation of /app as a route module declares it: its path as express matches it, below where it is mounted. */
export type AppOperation = Omit<RouteConfig, 'responses' | 'security' | 'path' | 'tags'> & {
  path: string;
  tag: keyof typeof appTags;
  responses: Responses;
};

/** An express path (`/orgs/:slug`) as OpenAPI writes it (`/orgs/{slug}`). */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

/**
 * An operation of /app, `path` relative to /app, with the console token's security and the
 * 401, 403, 421 and 500 that every /app operation may answer.
 */
export function registerConsoleOperation(registry: OpenAPIRegistry, { path, tag, responses, ...route }: AppOperation): void {
  registry.registerPath({
    ...route,
    path: `/app${openApiPath(path)}`,
    tags: [tag],
    security: [{ [consoleTokenSecurityScheme.name]: [] }, { [scriptTokenSecurityScheme.name]: [] }],
    responses: mergeResponses(
      responses,
      {
        401: errorResponse('The console token or script token is missing or not valid, or the session has ended (signed out, revoked or expired).'),
        403: errorResponse("The session cookie came with a request of another origin's page, or, for a change, without this server's Origin."),
      },
      guardAndServerErrors,
    ),
  });
}

/**
 * An operation of one organization, `path` relative to `/app/orgs/:slug`: it also takes the
 * organization's slug (400 when it is not a slug, 404 when no organization has it), besides
 * its own path parameters `params`.
 */
export function registerOrganizationOperation(registry: OpenAPIRegistry, operation: AppOperation & { params?: ZodRawShape }): void {
  const { params, request, responses, path, ...route } = operation;
  registerConsoleOperation(registry, {
    ...route,
    path: `/orgs/:slug${path}`,
    request: { ...request, params: z.object({ slug: slugParamSchema, ...params }) },
    responses: mergeResponses(
      { 400: errorResponse('The slug is not an organization slug.'), 404: errorResponse('No organization has this slug.') },
      responses,
    ),
  });
}
