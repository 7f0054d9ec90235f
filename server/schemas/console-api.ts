/**
 * Requests and answers of the console's own API under `/app` (DESIGN section 4). The renderer
 * imports the types from here; the server validates every input with these schemas.
 */
import { parseRemoteUrl } from '../remote/remote-tenant.js';
import type { osFamilies } from './common.js';
import {
  endpointListQuerySchema,
  remediationTargetListQuerySchema,
  scopeListQuerySchema,
  vulnerabilityFindingListQuerySchema,
} from './list-queries.js';
import { type findingSeverities, findingStatuses } from './vulnerability-finding.js';
import { z } from './zod.js';

/** An organization as the console lists it: never a secret, never the internal row id. */
export interface ConsoleOrganization {
  id: string;
  slug: string;
  name: string;
  kind: 'local' | 'replica';
  isDemo: boolean;
  remoteUrl: string | null;
  hasEnrollmentSecret: boolean;
  createdAt: string;
}

/** A replica's sync as `GET /app/sync` and `GET /app/orgs/:slug/sync` answer it: the scheduler's own type. */
export type { SyncStatus as ConsoleSyncStatus } from '../sync/sync-scheduler.js';

/** The ways secrets at rest are sealed (DESIGN section 4): the app's safeStorage, a key file, or plain text the user agreed to. */
export const secretProtections = ['system-keychain', 'key-file', 'plain-text'] as const;

/** How this process seals secrets at rest: what the console shows where the user hands one over. */
export const secretStorageSchema = z.object({
  protection: z.enum(secretProtections),
  /** Whether the desktop app found a system keychain; null headless, where no keychain is involved. */
  keychainAvailable: z.boolean().nullable(),
  /** One sentence for the user, naming the protection and, without a keychain, what it means. */
  description: z.string(),
});
export type SecretStorage = z.infer<typeof secretStorageSchema>;

/** `GET /app/session`: where local tools reach the loopback API, and how secrets are sealed. */
export const consoleSessionSchema = z.object({
  apiBaseUrl: z.string(),
  /** Null where the server has no sealer and so stores no secret (connecting a replica answers 501). */
  secretStorage: secretStorageSchema.nullable(),
});
export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

/** A local API key as listed; the key itself is shown once, when it is created. */
export interface ConsoleApiKey {
  id: string;
  hint: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** `POST /app/orgs/:slug/api-keys` body. */
export const createApiKeyBodySchema = z.strictObject({
  label: z.string().trim().max(100, 'must be at most 100 characters').nullish().transform((v) => v || null),
});

/** `POST /app/orgs/:slug/api-keys` answer: the key, shown only now, and its listed form. */
export interface CreatedApiKey {
  key: string;
  info: ConsoleApiKey;
}

const slugRegex = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** Path parameter of an organization. */
export const slugParamSchema = z.string().regex(slugRegex, 'is not an organization slug');

/**
 * `POST /app/organizations` body, and what `orgs connect` passes: a replica of a remote tenant.
 * `remoteUrl` comes out normalized (no trailing slash); a missing or blank name is the slug.
 */
export const connectOrganizationBodySchema = z.strictObject({
  slug: z
    .string({ error: 'is required' })
    .trim()
    .regex(slugRegex, 'must be 1 to 40 lowercase letters, digits and inner hyphens'),
  name: z.string().trim().max(200, 'must be at most 200 characters').nullish().transform((v) => v || undefined),
  remoteUrl: z
    .string({ error: 'is required' })
    .trim()
    .transform((text, context) => {
      const url = parseRemoteUrl(text);
      if (!url) context.addIssue({ code: 'custom', message: 'must be an http or https URL without credentials, query or fragment' });
      return url ?? z.NEVER;
    }),
  apiKey: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(1024, 'must be at most 1024 characters')
    .regex(/^\S*$/, 'must not contain white space'),
});
export type ConnectOrganizationBody = z.input<typeof connectOrganizationBodySchema>;

/** A field the server refused, with why: the console shows it beside the field. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The error answer of an invalid body: the `{"error"}` of every error, plus each field's issue. */
export interface FieldErrorBody {
  error: string;
  issues: FieldIssue[];
}

/** An order of a console list: a column, either way; ties are broken by id, in the same direction. */
export interface ListSort<K extends string = string> {
  key: K;
  descending: boolean;
}

/**
 * `sort` of a console list: one of `keys`, ascending, or with a leading `-` descending.
 * Absent, the list is in its default order, `created_at` (then id) ascending.
 */
function sortSchema<const K extends readonly [string, ...string[]]>(keys: K) {
  const allowed = keys.flatMap((key) => [key, `-${key}`]);
  return z
    .string()
    .optional()
    .refine((value) => value === undefined || allowed.includes(value), { error: `must be one of ${allowed.join(', ')}` })
    .transform((value): ListSort<K[number]> => {
      const text = value ?? 'created_at';
      return { key: text.replace(/^-/, '') as K[number], descending: text.startsWith('-') };
    });
}

/** The columns each console list sorts by, as `sort` spells them. */
export const sortKeys = {
  endpoints: ['hostname', 'os_family', 'os_version', 'updated_at', 'created_at'],
  remediationTargets: ['vendor', 'product', 'version', 'highest_cvss_score', 'status', 'created_at'],
  scopes: ['name', 'status', 'created_at'],
  findings: ['severity', 'cvss_score', 'cve_id', 'status', 'first_detected_at', 'created_at'],
} as const;

/** Free text: a case-insensitive substring; see each list for the fields it searches. */
const textSchema = z.string().trim().max(100, 'must be at most 100 characters').optional().transform((v) => v || undefined);

/** The console's endpoint list: the v1 filters, `sort`, and `q` over hostname and IP. */
export const consoleEndpointQuerySchema = endpointListQuerySchema.extend({ sort: sortSchema(sortKeys.endpoints), q: textSchema });
export type ConsoleEndpointQuery = z.output<typeof consoleEndpointQuerySchema>;

/** The console's target list: the v1 filters, `sort`, and `q` over vendor, product and package name. */
export const consoleTargetQuerySchema = remediationTargetListQuerySchema.extend({ sort: sortSchema(sortKeys.remediationTargets), q: textSchema });
export type ConsoleTargetQuery = z.output<typeof consoleTargetQuerySchema>;

/** The console's scope list: the v1 filters, `sort`, and `q` over the name. */
export const consoleScopeQuerySchema = scopeListQuerySchema.extend({ sort: sortSchema(sortKeys.scopes), q: textSchema });
export type ConsoleScopeQuery = z.output<typeof consoleScopeQuerySchema>;

/**
 * The console's finding list: the v1 filters, `sort`, and `q`, a case-insensitive substring of
 * the CVE id, the title (the CVE's text), or the hostname of the finding's endpoint. The CVEs,
 * texts and endpoints are matched first, then the findings through their indexes.
 */
export const consoleFindingQuerySchema = vulnerabilityFindingListQuerySchema.extend({ sort: sortSchema(sortKeys.findings), q: textSchema });
export type ConsoleFindingQuery = z.output<typeof consoleFindingQuerySchema>;

/** Paging of the coverage answers; `status` narrows the covered findings listed. */
export const coveragePageQuerySchema = z.object({
  limit: vulnerabilityFindingListQuerySchema.shape.limit,
  offset: vulnerabilityFindingListQuerySchema.shape.offset,
  status: z.enum(findingStatuses, { error: `must be one of ${findingStatuses.join(', ')}` }).optional(),
});
export type CoveragePageQuery = z.output<typeof coveragePageQuerySchema>;

/** Paging of the coverage gaps. */
export const coverageGapQuerySchema = coveragePageQuerySchema.pick({ limit: true, offset: true });
export type CoverageGapQuery = z.output<typeof coverageGapQuerySchema>;

type Severity = (typeof findingSeverities)[number];
type OsFamily = (typeof osFamilies)[number];

/** `GET /app/orgs/:slug/dashboard`: the aggregates of one organization. */
export interface Dashboard {
  totals: { endpoints: number; remediationTargets: number; findings: number; openFindings: number; openKevFindings: number; scopes: number };
  /** Findings per severity, most severe first, split by status. */
  findingsBySeverity: { severity: Severity; open: number; remediated: number }[];
  endpointsByOsFamily: { family: OsFamily; count: number }[];
  agentCoverage: { withAgent: number; withoutAgent: number };
  /** The ten products with the most open findings, through the findings' remediation targets. */
  topVulnerableProducts: { vendor: string | null; product: string | null; openFindings: number; remediationTargets: number }[];
  /** Findings per month of first detection (`YYYY-MM`, as the timestamp writes it), per severity. */
  findingsOverTime: ({ month: string } & Record<Severity, number>)[];
}

/** A part of a scope's filters that the replica cannot evaluate, and why. */
export interface UnevaluatedCriterion {
  field: string;
  reason: string;
}

/** Counts of the findings a scope (or the set of gaps) holds. */
export interface CoverageCounts {
  findings: number;
  openFindings: number;
  endpoints: number;
  remediationTargets: number;
  bySeverity: Record<Severity, number>;
}

/** One page of finding JSON, as the v1 list envelope. */
export interface FindingPage<T = unknown> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

/** `GET /app/orgs/:slug/scopes/:scopeId/coverage`. */
export interface ScopeCoverage<T = unknown> {
  scopeId: string;
  counts: CoverageCounts;
  /** Criteria that were not applied; the counts are as if they were absent. */
  unevaluated: UnevaluatedCriterion[];
  /** The covered findings, in the lists' default order, narrowed by `status` when given. */
  findings: FindingPage<T>;
}

/** `GET /app/orgs/:slug/coverage-gaps`. */
export interface CoverageGaps<T = unknown> {
  /** Open findings that are critical, high or KEV: the ones a scope should cover. */
  candidates: number;
  /** The active scopes the candidates were checked against. */
  activeScopes: number;
  counts: CoverageCounts;
  unevaluated: (UnevaluatedCriterion & { scopeId: string })[];
  findings: FindingPage<T>;
}
