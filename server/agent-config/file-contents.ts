/**
 * What each agent configuration file holds, by platform and profile: the payloads of a
 * .mobileconfig, the entries of a ZIP, whether the enrollment secret is inside. The generator
 * builds its files from these tables and the console's preview reads them, so the preview cannot
 * drift from the file. Light on purpose: `serve` loads it without the signing modules.
 */
import type { AgentPlatform, AgentProfile } from '../../contracts/enums.js';
import { checkPlatformProfile } from '../../contracts/agent-config.js';
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

/** The native configuration files of a platform, in the order the ZIP holds them. */
export function platformConfigFileNames(platform: AgentPlatform, bundleId: string): string[] {
  switch (platform) {
    case 'macos':
      return [macosPlistFileName(bundleId)];
    case 'windows':
      return [nativeConfigFileNames.windowsRegistry, nativeConfigFileNames.windowsJson];
    case 'linux':
      return [nativeConfigFileNames.linuxYaml];
  }
}

/** What a file of a platform and profile holds. */
export interface AgentConfigContents {
  /** The payload display names of a .mobileconfig, or the entry names of a ZIP, in order. */
  contents: string[];
  /** Every file but mdm-permissions carries the enrollment secret. */
  holdsEnrollmentSecret: boolean;
  /**
   * The .mobileconfig files: their privacy (TCC) and login-item payloads take effect only when a
   * user-approved MDM installs them (Apple's schemas mark them `userapprovedmdm: true`).
   */
  needsUserApprovedMdm: boolean;
}

/**
 * What the file of a platform and profile holds, for an agent of that bundle id (it names the
 * macOS plist of a ZIP).
 * @throws AgentConfigInputError for an MDM profile of a platform other than macos
 */
export function agentConfigContents(platform: AgentPlatform, profile: AgentProfile, bundleId: string): AgentConfigContents {
  const combination = checkPlatformProfile(platform, profile);
  if (combination) throw new AgentConfigInputError('invalid-combination', `Invalid platform/profile combination: ${combination}`);
  if (profile === 'config') {
    const contents = [
      ...platformConfigFileNames(platform, bundleId).flatMap((name) => [name, `${name}${detachedSignatureExtension}`]),
      signerCertificateFileName,
    ];
    return { contents, holdsEnrollmentSecret: true, needsUserApprovedMdm: false };
  }
  return {
    contents: profilePayloads(profile).map((payload) => profilePayloadNames[payload]),
    holdsEnrollmentSecret: profile === 'mdm-full',
    needsUserApprovedMdm: true,
  };
}
