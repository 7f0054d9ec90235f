/**
 * The query of `GET /v1/agent/config` (specification 4.9, DESIGN section 6). The schema takes the
 * raw single-valued strings of the query; the platform/profile combination is checked apart by
 * {@link checkPlatformProfile}, because its message names both parameters, not one.
 */
import * as z from 'zod';
import { type AgentPlatform, type AgentProfile, agentPlatforms, agentProfiles, mdmProfiles } from './enums.js';

const platformList = agentPlatforms.join(', ');
const profileList = agentProfiles.join(', ');

export const agentConfigQuerySchema = z.object({
  platform: z
    .enum(agentPlatforms, {
      error: (issue) =>
        issue.input === undefined ? `is required: one of ${platformList}` : `must be one of ${platformList}`,
    })
    .meta({ description: 'Target operating system of the agent.', example: 'macos' }),
  profile: z
    .enum(agentProfiles, { error: `must be one of ${profileList}` })
    .default('config')
    .meta({
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
export const agentConfigFileSchema = z.string().meta({
  type: 'string',
  format: 'binary',
  description:
    'The signed file, named by Content-Disposition: a .zip for profile=config, a .mobileconfig ' +
    '(DER CMS SignedData with the XML plist attached) for the MDM profiles.',
});
