/**
 * What each agent configuration file holds, by platform and profile: the payloads of a
 * .mobileconfig, the entries of a ZIP, which settings each of them carries, whether the
 * enrollment secret is inside. One description, two readers: the generator takes from its input
 * only the settings described here (generate.ts, {@link carriedSettings}), and the console's
 * preview shows exactly these, so the preview cannot list what the file does not hold. Light on
 * purpose: `serve` loads it without the signing modules.
 */
import type { AgentPlatform, AgentProfile } from '../../contracts/enums.js';
import { checkPlatformProfile } from '../../contracts/agent-config.js';
import { type AgentFileSetting, agentFileSettings } from '../../contracts/console/agent-settings.js';
import { AgentConfigInputError } from './errors.js';

/** The name of the signer certificate inside a configuration ZIP. */
export const signerCertificateFileName = 'signer.pem';
/** The extension of a detached signature inside a configuration ZIP. */
export const detachedSignatureExtension = '.p7s';

/** The two profiles that are configuration profiles. */
export type MdmProfile = 'mdm-full' | 'mdm-permissions';

/**
 * The payloads of a configuration profile, keyed by the suffix of their PayloadIdentifier, with
 * their PayloadDisplayName, in the order a profile holds them.
 */
export const profilePayloadNames = {
  settings: 'Remediation Console agent settings',
  privacy: 'Remediation Console agent: full disk access',
  notifications: 'Remediation Console agent: notifications',
  'login-items': 'Remediation Console agent: background item',
} as const;
/** A payload of a configuration profile, by its identifier suffix. */
export type ProfilePayload = keyof typeof profilePayloadNames;

/**
 * The settings each payload carries: the managed preferences the server URL and the secret,
 * under the bundle id as their preference domain; the privacy grant and the login-item rules the
 * bundle id and the Team ID of the agent's signature; the notifications the bundle id.
 */
export const profilePayloadSettings: Record<ProfilePayload, readonly AgentFileSetting[]> = {
  settings: ['serverUrl', 'enrollmentSecret', 'bundleId'],
  privacy: ['bundleId', 'teamId'],
  notifications: ['bundleId'],
  'login-items': ['teamId', 'bundleId'],
};

/** The payloads of a profile, in order: the settings (and the secret) only in mdm-full. */
export function profilePayloads(profile: MdmProfile): ProfilePayload[] {
  const permissions: ProfilePayload[] = ['privacy', 'notifications', 'login-items'];
  return profile === 'mdm-full' ? ['settings', ...permissions] : permissions;
}

/** The fixed names of the native configuration files; the macOS plist is named by {@link macosPlistFileName}. */
export const nativeConfigFileNames = {
  windowsRegistry: 'RemediationConsoleAgent.reg',
  windowsJson: 'agent.json',
  linuxYaml: 'agent.yaml',
} as const;

/** The macOS plist is named for its preference domain, the agent's bundle id, as `/Library/Managed Preferences/` names it. */
export function macosPlistFileName(bundleId: string): string {
  return `${bundleId}.plist`;
}

/**
 * The native configuration files of a platform, in the order the ZIP holds them; `bundleId`
 * names the macOS plist, and macOS needs it.
 */
export function platformConfigFileNames(platform: AgentPlatform, bundleId: string | undefined): string[] {
  switch (platform) {
    case 'macos':
      if (bundleId === undefined) throw new Error('The macOS configuration plist is named for the bundle id, and none was given');
      return [macosPlistFileName(bundleId)];
    case 'windows':
      return [nativeConfigFileNames.windowsRegistry, nativeConfigFileNames.windowsJson];
    case 'linux':
      return [nativeConfigFileNames.linuxYaml];
  }
}

/**
 * The settings a platform's native configuration file(s) carry: the server URL and the secret,
 * and on macOS the bundle id, which names the plist (its preference domain). No native file pins
 * a Team ID: only a profile's privacy and login-item payloads do.
 */
export function platformConfigFileSettings(platform: AgentPlatform): readonly AgentFileSetting[] {
  return platform === 'macos' ? ['serverUrl', 'enrollmentSecret', 'bundleId'] : ['serverUrl', 'enrollmentSecret'];
}

/** What a file of a platform and profile holds. */
export interface AgentConfigContents {
  /**
   * The settings the file carries, in the order of `agentFileSettings`; every file also records
   * the organization id, a config id and its generation time.
   */
  carries: AgentFileSetting[];
  /** The payload display names of a .mobileconfig, or the entry names of a ZIP, in order. */
  contents: string[];
  /** Every file but mdm-permissions carries the enrollment secret (`carries` names it). */
  holdsEnrollmentSecret: boolean;
  /**
   * The .mobileconfig files: their privacy (TCC) and login-item payloads take effect only when a
   * user-approved MDM installs them (Apple's schemas mark them `userapprovedmdm: true`).
   */
  needsUserApprovedMdm: boolean;
}

/**
 * The settings the file of a platform and profile carries, in the order of `agentFileSettings`:
 * those of its native files, or of its payloads.
 * @throws AgentConfigInputError for an MDM profile of a platform other than macos
 */
export function agentConfigCarries(platform: AgentPlatform, profile: AgentProfile): AgentFileSetting[] {
  const combination = checkPlatformProfile(platform, profile);
  if (combination) throw new AgentConfigInputError('invalid-combination', `Invalid platform/profile combination: ${combination}`);
  const settings = profile === 'config' ? platformConfigFileSettings(platform) : profilePayloads(profile).flatMap((payload) => profilePayloadSettings[payload]);
  return agentFileSettings.filter((setting) => settings.includes(setting));
}

/**
 * What the file of a platform and profile holds, for an agent of that bundle id (it names the
 * macOS plist of a ZIP).
 * @throws AgentConfigInputError for an MDM profile of a platform other than macos
 */
export function agentConfigContents(platform: AgentPlatform, profile: AgentProfile, bundleId: string): AgentConfigContents {
  const carries = agentConfigCarries(platform, profile);
  const holdsEnrollmentSecret = carries.includes('enrollmentSecret');
  if (profile === 'config') {
    const contents = [
      ...platformConfigFileNames(platform, bundleId).flatMap((name) => [name, `${name}${detachedSignatureExtension}`]),
      signerCertificateFileName,
    ];
    return { carries, holdsEnrollmentSecret, contents, needsUserApprovedMdm: false };
  }
  return {
    carries,
    holdsEnrollmentSecret,
    contents: profilePayloads(profile).map((payload) => profilePayloadNames[payload]),
    needsUserApprovedMdm: true,
  };
}

/** The values a file may be made from, by setting; null where none is set. */
export type AgentFileValues = { [setting in AgentFileSetting]: string | null };

/**
 * The values of exactly the settings a file carries, the others left out: what the generator
 * builds a file from, so that nothing the description leaves out can reach the file.
 */
export function carriedSettings(carries: readonly AgentFileSetting[], values: AgentFileValues): Partial<AgentFileValues> {
  return Object.fromEntries(carries.map((setting) => [setting, values[setting]]));
}
