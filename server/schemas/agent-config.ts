/**
 * The query of `GET /v1/agent/config` (specification 4.9, DESIGN section 6). The schema takes the
 * raw single-valued strings of the query; the platform/profile combination is checked apart by
 * {@link checkPlatformProfile}, because its message names both parameters, not one.
 */
import { z } from './zod.js';

/** Operating systems an agent configuration is generated for. */
export const agentPlatforms = ['linux', 'macos', 'windows'] as const;
/** A target operating system of an agent configuration. */
export type AgentPlatform = (typeof agentPlatforms)[number];

/** Kinds of agent configuration file. */
export const agentProfiles = ['config', 'mdm-full', 'mdm-permissions'] as const;
/** A kind of agent configuration file: native config files, or a signed macOS profile. */
export type AgentProfile = (typeof agentProfiles)[number];

/** The profiles that are macOS configuration profiles (.mobileconfig), valid only for macos. */
export const mdmProfiles = ['mdm-full', 'mdm-permissions'] as const satisfies readonly AgentProfile[];

const platformList = agentPlatforms.join(', ');
const profileList = agentProfiles.join(', ');

export const agentConfigQuerySchema = z.object({
  platform: z
    .enum(agentPlatforms, {
      error: (issue) =>
        issue.input === undefined ? `is required: one of ${platformList}` : `must be one of ${platformList}`,
    })
    .openapi({ description: 'Target operating system of the agent.', example: 'macos' }),
  profile: z
    .enum(agentProfiles, { error: `must be one of ${profileList}` })
    .default('config')
    .openapi({
      description:
        'Kind of file. `config`: a ZIP of the platform-native configuration file(s), each with a ' +
        'detached CMS signature (.p7s), and the signer certificate. `mdm-full`: a signed macOS ' +
        '.mobileconfig with the agent settings (enrollment secret included) and the permission ' +
        'payloads. `mdm-permissions`: a signed .mobileconfig with the permission payloads only, no ' +
        'secret. The two MDM profiles are valid only with platform=macos.',
      example: 'config',
    }),
});
/** The parsed query: the platform, and the profile with its default applied. */
export type AgentConfigQuery = z.output<typeof agentConfigQuerySchema>;

/**
 * The combination rule of specification 4.9: the MDM profiles exist only for macOS.
 * @returns a message naming the combination when it is invalid, `undefined` when it is valid
 */
export function checkPlatformProfile(platform: AgentPlatform, profile: AgentProfile): string | undefined {
  if (platform !== 'macos' && (mdmProfiles as readonly string[]).includes(profile)) {
    return `profile "${profile}" is only available for platform "macos", not "${platform}"`;
  }
  return undefined;
}

/** The 200 answer: the signed file, as `application/octet-stream`. */
export const agentConfigFileSchema = z.string().openapi({
  type: 'string',
  format: 'binary',
  description:
    'The signed file, named by Content-Disposition: a .zip for profile=config, a .mobileconfig ' +
    '(DER CMS SignedData with the XML plist attached) for the MDM profiles.',
});
