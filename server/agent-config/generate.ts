/**
 * Generates a signed agent configuration file (`GET /v1/agent/config`, `agent-config` command):
 * for `config` a ZIP of the platform's native files with detached signatures, for the MDM
 * profiles a signed .mobileconfig. See README.md for what each holds.
 */
import { randomUUID } from 'node:crypto';
import { strToU8, type Zippable, zipSync } from 'fflate';
import { type AgentPlatform, type AgentProfile, agentPlatforms, agentProfiles } from '../../contracts/enums.js';
import { checkPlatformProfile } from '../../contracts/agent-config.js';
import { bundleIdPattern, teamIdPattern } from '../../contracts/console/agent-settings.js';
import type { MacosAgentIdentity } from './agent-identity.js';
import type { AgentSettings, ConfigRecord } from './agent-settings.js';
import { signCms, type SignerPems } from './cms-signer.js';
import { configurationProfile } from './configuration-profile.js';
import { AgentConfigInputError } from './errors.js';
import {
  type AgentFileValues,
  agentConfigCarries,
  carriedSettings,
  detachedSignatureExtension,
  signerCertificateFileName,
} from './file-contents.js';
import { nativeConfigFiles, xmlPlist } from './native-config-files.js';
import { hasControlCharacter } from './printable-text.js';

/** What a file is generated from. */
export interface GenerateAgentConfigInput {
  platform: AgentPlatform;
  profile: AgentProfile;
  organization: { id: string; slug: string; name: string };
  enrollmentSecret: string;
  /** The URL agents reach the server at, http or https. */
  serverUrl: string;
  /**
   * The Apple Developer Team ID the macOS agent is signed with: the MDM profiles' privacy grant
   * and login-item rules pin it, so they cannot be made without it.
   */
  teamId: string | null;
  /** The macOS agent's bundle identifier: its preference domain, and what the permissions name. */
  bundleId: string;
  /** The organization's signing key and certificate, PEM. */
  signer: SignerPems;
  /** The generation time; now unless given (tests). */
  now?: Date;
}

/** A generated file. */
export interface GeneratedAgentConfig {
  /** The name to save it under, e.g. `remediation-agent-acme-macos-mdm-full.mobileconfig`. */
  filename: string;
  bytes: Buffer;
  /** The uuid this file records, new for each generation. */
  configId: string;
}

/**
 * Generates and signs an agent configuration file.
 * @throws AgentConfigInputError for an unknown platform or profile, an MDM profile for a platform
 *   other than macos, an MDM profile without a Team ID (`missing-setting`), or a setting that
 *   cannot be written (not an http(s) URL, an empty secret, a control character, a malformed
 *   Team ID or bundle id)
 * @throws AgentConfigSigningError when the organization's key or certificate cannot sign
 */
export async function generateAgentConfig(input: GenerateAgentConfigInput): Promise<GeneratedAgentConfig> {
  checkInput(input);
  // The file is made from the settings its description says it carries, and from nothing else:
  // the console's preview reads the same description.
  const carried = carriedSettings(agentConfigCarries(input.platform, input.profile), {
    serverUrl: input.serverUrl,
    enrollmentSecret: input.enrollmentSecret,
    teamId: input.teamId,
    bundleId: input.bundleId,
  });
  if (carried.teamId === null) {
    throw new AgentConfigInputError(
      'missing-setting',
      `The ${input.profile} profile needs the Team ID the macOS agent is signed with: its privacy and login-item payloads pin it`,
    );
  }
  const now = input.now ?? new Date();
  const record: ConfigRecord = {
    organizationId: input.organization.id,
    configId: randomUUID(),
    generatedAt: now.toISOString(),
  };
  const settings = (): AgentSettings => ({ ...record, serverUrl: carriedValue(carried, 'serverUrl'), enrollmentSecret: carriedValue(carried, 'enrollmentSecret') });
  const baseName = `remediation-agent-${input.organization.slug}-${input.platform}-${input.profile}`;

  if (input.profile === 'config') {
    const bytes = await configZip(input.platform, settings(), carried.bundleId ?? undefined, input.signer, now);
    return { filename: `${baseName}.zip`, bytes, configId: record.configId };
  }
  const agent: MacosAgentIdentity = { bundleId: carriedValue(carried, 'bundleId'), teamId: carriedValue(carried, 'teamId') };
  const profile =
    input.profile === 'mdm-full'
      ? configurationProfile({ profile: 'mdm-full', organization: input.organization, agent, settings: settings() })
      : configurationProfile({ profile: 'mdm-permissions', organization: input.organization, agent, record });
  const bytes = await signCms(Buffer.from(xmlPlist(profile)), input.signer, { detached: false, signingTime: now });
  return { filename: `${baseName}.mobileconfig`, bytes, configId: record.configId };
}

/**
 * A setting the file's builder needs, which its description must say the file carries: a builder
 * that reaches for another is a description out of step with the generator, not a user's error.
 */
function carriedValue(carried: Partial<AgentFileValues>, setting: keyof AgentFileValues): string {
  const value = carried[setting];
  if (typeof value !== 'string') throw new Error(`The description of this agent configuration file does not carry its ${setting}`);
  return value;
}

/** Unix modes in the ZIP: the files with the secret extract readable by their owner only. */
const secretFileMode = 0o100600;
const publicFileMode = 0o100644;

async function configZip(platform: AgentPlatform, settings: AgentSettings, bundleId: string | undefined, signer: SignerPems, now: Date): Promise<Buffer> {
  const files = nativeConfigFiles(platform, settings, bundleId);
  const signatures = await Promise.all(
    files.map((file) => signCms(file.bytes, signer, { detached: true, signingTime: now })),
  );
  // Made by a Unix host (os 3) so that unzip applies the modes; mtime is the generation time.
  const entry = (data: Uint8Array, mode: number): Zippable[string] => [data, { mtime: now, os: 3, attrs: mode * 0x10000 }];
  const zippable: Zippable = {};
  files.forEach((file, index) => {
    zippable[file.name] = entry(file.bytes, file.holdsSecret ? secretFileMode : publicFileMode);
    zippable[`${file.name}${detachedSignatureExtension}`] = entry(signatures[index]!, publicFileMode);
  });
  zippable[signerCertificateFileName] = entry(strToU8(signer.certificatePem), publicFileMode);
  return Buffer.from(zipSync(zippable, { level: 6 }));
}

function checkInput(input: GenerateAgentConfigInput): void {
  if (!(agentPlatforms as readonly string[]).includes(input.platform)) {
    throw new AgentConfigInputError('invalid-platform', `Unknown platform "${String(input.platform)}": use one of ${agentPlatforms.join(', ')}`);
  }
  if (!(agentProfiles as readonly string[]).includes(input.profile)) {
    throw new AgentConfigInputError('invalid-profile', `Unknown profile "${String(input.profile)}": use one of ${agentProfiles.join(', ')}`);
  }
  const combination = checkPlatformProfile(input.platform, input.profile);
  if (combination) throw new AgentConfigInputError('invalid-combination', `Invalid platform/profile combination: ${combination}`);

  let url: URL | undefined;
  try {
    url = new URL(input.serverUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || hasControlCharacter(input.serverUrl)) {
    throw new AgentConfigInputError('invalid-input', `The server URL ${JSON.stringify(input.serverUrl)} is not an http or https URL`);
  }
  // A control character cannot be written into a plist (XML) or a .reg string value.
  if (!input.enrollmentSecret || hasControlCharacter(input.enrollmentSecret)) {
    throw new AgentConfigInputError('invalid-input', 'The enrollment secret is empty or holds a control character');
  }
  if (!bundleIdPattern.test(input.bundleId)) {
    throw new AgentConfigInputError('invalid-input', `The bundle id ${JSON.stringify(input.bundleId)} is not a reverse-DNS identifier`);
  }
  if (input.teamId !== null && !teamIdPattern.test(input.teamId)) {
    throw new AgentConfigInputError('invalid-input', `The Team ID ${JSON.stringify(input.teamId)} is not ten uppercase letters and digits`);
  }
  if (!input.organization.id || !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(input.organization.slug)) {
    throw new AgentConfigInputError('invalid-input', `The organization slug "${input.organization.slug}" cannot name a file`);
  }
}
