/**
 * An organization's agent settings (DESIGN section 6): what its agent configuration files tell
 * agents, kept locally with the organization and across syncs, never shown by /v1. The server
 * URL has no default: a local organization without one produces no file.
 */
import * as z from 'zod';
import { baseUrlOrBlankPattern } from '../address-patterns.js';
import { agentPlatforms, agentProfiles } from '../enums.js';
import { uuidSchema } from '../common.js';

/** An Apple Developer Team ID: ten uppercase letters and digits. */
export const teamIdPattern = /^[A-Z0-9]{10}$/;

/** A reverse-DNS bundle identifier: two or more dot-separated labels of letters, digits and hyphens. */
export const bundleIdPattern = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

/** A pattern (its source) of `pattern`'s values, or only white space, trimmed either way: what a setting that a blank clears takes. */
function blankOr(pattern: RegExp): string {
  return `^\\s*(?:${pattern.source.replace(/^\^|\$$/g, '')})?\\s*$`;
}

/** The bundle identifier of the agent when an organization sets none. */
export const defaultAgentBundleId = 'com.remediationconsole.agent';

/**
 * The demo organization's settings: obviously fictitious (a reserved `.example` domain) but
 * well-formed, so that a newcomer downloads a file at once. Its bundle id is the default.
 */
export const demoAgentSettings = { serverUrl: 'https://agents.demo.example', teamId: 'DEMO7QX3K9' } as const;

/** `GET /app/orgs/{slug}/agent-settings`, and the answer of its update. */
export const agentSettingsSchema = z
  .object({
    serverUrl: z
      .string()
      .nullable()
      .meta({ description: 'The URL agents reach; null until it is set (no file can be made without it).', example: 'https://agents.example.com' }),
    teamId: z
      .string()
      .nullable()
      .meta({ description: "The Apple Developer Team ID the macOS agent is signed with; the TCC grant's code requirement pins it.", example: 'Q7M3K9D2XP' }),
    bundleId: z.string().meta({ description: "The macOS agent's bundle identifier.", example: defaultAgentBundleId }),
    isDemo: z.boolean().meta({ description: "True where these are the demo organization's fictitious settings." }),
    warnings: z
      .array(z.string())
      .meta({ description: 'What an admin should know about these settings, e.g. a plain-http URL.' }),
    missing: z
      .array(z.enum(['serverUrl', 'teamId']))
      .meta({ description: 'Settings a file of this organization needs that are not set yet.' }),
  })
  .meta({ id: 'AgentSettings' });
export type AgentSettingsView = z.infer<typeof agentSettingsSchema>;

/**
 * `PUT /app/orgs/{slug}/agent-settings` body: each given field replaces its value (null clears
 * it); an absent field keeps its value. `allowLoopback` permits a loopback server URL (tests).
 */
export const updateAgentSettingsBodySchema = z
  .strictObject({
    // The server checks each value itself (manage-agent-settings.ts), naming what is wrong; the patterns tell a tool what it takes.
    serverUrl: z
      .string()
      .nullable()
      .optional()
      .meta({
        pattern: baseUrlOrBlankPattern.source,
        maxLength: 2048,
        description: 'An http or https URL with a host, without credentials, query or fragment; a loopback host only with `allowLoopback`. Blank or null clears it.',
      }),
    teamId: z
      .string()
      .nullable()
      .optional()
      .meta({ pattern: blankOr(teamIdPattern), description: 'Ten uppercase letters A–Z and digits 0–9. Blank or null clears it.' }),
    bundleId: z
      .string()
      .nullable()
      .optional()
      .meta({ pattern: blankOr(bundleIdPattern), maxLength: 255, description: 'A reverse-DNS identifier, e.g. com.example.agent. Blank or null sets the default.' }),
    allowLoopback: z.boolean().optional(),
  })
  .meta({ id: 'UpdateAgentSettings' });
export type UpdateAgentSettingsBody = z.infer<typeof updateAgentSettingsBodySchema>;

/**
 * The settings an agent configuration file can carry, as the preview and `verify` name them. Every
 * file also records the organization id, a config id and its generation time.
 */
export const agentFileSettings = ['serverUrl', 'teamId', 'bundleId', 'enrollmentSecret'] as const;
export type AgentFileSetting = (typeof agentFileSettings)[number];

/**
 * `GET /app/orgs/{slug}/agent-config/preview?platform=&profile=`: what the file of that platform
 * and profile will hold, before it is made: made from the same description of the file the
 * generator reads, so a setting the file does not carry is null here and absent from `carries`.
 */
export const agentConfigPreviewSchema = z
  .object({
    platform: z.enum(agentPlatforms),
    profile: z.enum(agentProfiles),
    source: z.enum(['local', 'remote']).meta({
      description:
        "`remote`: a replica, whose file its remote tenant makes with the remote's own settings, organization id and slug, which are not known here: " +
        '`organizationId` and the values are then null and `contents` empty; `carries` still says which settings that kind of file holds.',
    }),
    organizationId: uuidSchema
      .nullable()
      .meta({ description: "The organization id the file records: this organization's; null for a replica, whose file records its remote tenant's." }),
    carries: z.array(z.enum(agentFileSettings)).meta({
      description: 'The settings the file carries (what `verify` finds in it); the others are not in the file, and null below.',
      example: ['serverUrl', 'bundleId', 'enrollmentSecret'],
    }),
    serverUrl: z.string().nullable().meta({ description: 'The URL the file tells agents to reach; null when the file does not carry one or it is not set.' }),
    teamId: z.string().nullable().meta({ description: "The Team ID the file pins (only the macOS MDM profiles do); null when it does not carry one or it is not set." }),
    bundleId: z.string().nullable().meta({ description: "The macOS agent's bundle id the file names (macOS files only); null otherwise." }),
    holdsEnrollmentSecret: z.boolean(),
    /** The payload display names of a .mobileconfig, or the file names of a ZIP; empty for a replica. */
    contents: z.array(z.string()),
    /** True for .mobileconfig files whose payloads take effect only through a user-approved MDM. */
    needsUserApprovedMdm: z.boolean(),
    /** What must be set before this file can be made; empty when it can. */
    missing: z.array(z.string()),
  })
  .meta({ id: 'AgentConfigPreview' });
export type AgentConfigPreview = z.infer<typeof agentConfigPreviewSchema>;
