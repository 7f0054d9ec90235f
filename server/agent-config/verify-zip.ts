/**
 * Verification of a configuration ZIP: every file has a valid detached signature by the one
 * signer, nothing unsigned rides along, and the settings read back.
 */
import { X509Certificate } from 'node:crypto';
import { unzipSync } from 'fflate';
import { parse as parsePlist } from 'plist';
import { parse as parseYaml } from 'yaml';
import type { AgentPlatform } from '../../contracts/enums.js';
import { bundleIdPattern } from '../../contracts/console/agent-settings.js';
import type { ConfigRecord } from './agent-settings.js';
import { verifyCms } from './cms-verifier.js';
import { AgentConfigVerificationError } from './errors.js';
import {
  detachedSignatureExtension,
  macosPlistFileName,
  nativeConfigFileNames,
  platformConfigFileNames,
  signerCertificateFileName,
} from './file-contents.js';
import { registryFile } from './native-config-files.js';
import { type AgentConfigReport, describeSigner } from './verify-report.js';

/** Far above any real configuration ZIP: refuses archives that would unpack into gigabytes. */
const maxUnpackedBytes = 16 * 1024 * 1024;
const maxEntries = 64;

/** What a ZIP's settings file tells beyond the record. */
type ZipSettings = ConfigRecord & { serverUrl: string; holdsEnrollmentSecret: boolean };

/**
 * Verifies a configuration ZIP against `expectedCertificate` when given (its signer.pem must be
 * that certificate), else against its own signer.pem.
 */
export async function verifyConfigZip(bytes: Uint8Array, expectedCertificate: Buffer | undefined): Promise<AgentConfigReport> {
  const entries = unzip(bytes);
  const names = Object.keys(entries);
  const fail = (why: string) => new AgentConfigVerificationError(`The ZIP ${why}`);

  const signerPem = entries[signerCertificateFileName];
  if (!signerPem) throw fail(`has no ${signerCertificateFileName}`);
  let zipSigner: X509Certificate;
  try {
    zipSigner = new X509Certificate(Buffer.from(signerPem));
  } catch (error) {
    throw fail(`holds a ${signerCertificateFileName} that cannot be read: ${(error as Error).message}`);
  }
  if (expectedCertificate && !Buffer.from(zipSigner.raw).equals(expectedCertificate)) {
    throw fail(
      `was signed by another certificate (${describeSigner(zipSigner).subject}, ${zipSigner.fingerprint256}) than the expected one`,
    );
  }

  // The macOS plist is named for the agent's bundle id, its preference domain.
  const plists = names.filter((name) => name.endsWith('.plist') && bundleIdPattern.test(name.slice(0, -'.plist'.length)));
  const bundleId = plists.length === 1 ? plists[0]!.slice(0, -'.plist'.length) : null;
  const platformFiles = (platform: AgentPlatform) => platformConfigFileNames(platform, bundleId ?? '');
  const platform = (['macos', 'windows', 'linux'] as const).find(
    (candidate) => (candidate !== 'macos' || bundleId !== null) && platformFiles(candidate).every((name) => name in entries),
  );
  if (!platform) throw fail('holds no agent configuration file');
  const expectedNames = new Set([
    ...platformFiles(platform).flatMap((name) => [name, `${name}${detachedSignatureExtension}`]),
    signerCertificateFileName,
  ]);
  const unexpected = names.find((name) => !expectedNames.has(name));
  if (unexpected) throw fail(`holds a file that is not part of a ${platform} configuration: ${unexpected}`);
  const missing = [...expectedNames].find((name) => !(name in entries));
  if (missing) throw fail(`lacks ${missing}`);

  for (const name of platformFiles(platform)) {
    await verifyCms(entries[`${name}${detachedSignatureExtension}`]!, {
      label: `${name}${detachedSignatureExtension}`,
      detachedContent: entries[name]!,
      expectedCertificate: expectedCertificate ?? Buffer.from(zipSigner.raw),
    });
  }

  const settings = readSettings(platform, bundleId ?? '', entries);
  return {
    kind: 'zip',
    platform,
    profile: 'config',
    ...settings,
    teamId: null,
    bundleId: platform === 'macos' ? bundleId : null,
    payloads: [],
    files: names,
    signer: describeSigner(zipSigner),
  };
}

function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  let unpacked = 0;
  let count = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        unpacked += file.originalSize;
        count += 1;
        if (unpacked > maxUnpackedBytes || count > maxEntries) throw new Error('it is too large for a configuration archive');
        return true;
      },
    });
  } catch (error) {
    throw new AgentConfigVerificationError(`The ZIP cannot be read: ${(error as Error).message}`);
  }
}

/** The keys verification reads, as the plist, registry and JSON name them, and as the YAML does. */
const pascalKeys = { organizationId: 'OrganizationID', configId: 'ConfigID', generatedAt: 'GeneratedAt', serverUrl: 'ServerURL', secret: 'EnrollmentSecret' };
const snakeKeys = { organizationId: 'organization_id', configId: 'config_id', generatedAt: 'generated_at', serverUrl: 'server_url', secret: 'enrollment_secret' };

/** The record and server URL of the file, read from the platform's configuration file(s). */
function readSettings(platform: AgentPlatform, bundleId: string, entries: Record<string, Uint8Array>): ZipSettings {
  const text = (name: string) => Buffer.from(entries[name]!).toString('utf8');
  switch (platform) {
    case 'macos': {
      const name = macosPlistFileName(bundleId);
      return pick(name, () => parsePlist(text(name)), pascalKeys);
    }
    case 'linux':
      return pick(nativeConfigFileNames.linuxYaml, () => parseYaml(text(nativeConfigFileNames.linuxYaml)), snakeKeys);
    case 'windows': {
      const settings = pick(nativeConfigFileNames.windowsJson, () => JSON.parse(text(nativeConfigFileNames.windowsJson)), pascalKeys);
      checkRegistryFile(entries[nativeConfigFileNames.windowsRegistry]!, entries[nativeConfigFileNames.windowsJson]!);
      return settings;
    }
  }
}

function pick(name: string, parse: () => unknown, keys: typeof pascalKeys): ZipSettings {
  let parsed: unknown;
  try {
    parsed = parse();
  } catch (error) {
    throw new AgentConfigVerificationError(`${name} cannot be parsed: ${(error as Error).message}`);
  }
  const values = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const read = (key: string) => {
    const value = values[key];
    if (typeof value !== 'string' || !value) throw new AgentConfigVerificationError(`${name} does not record its ${key}`);
    return value;
  };
  return {
    organizationId: read(keys.organizationId),
    configId: read(keys.configId),
    generatedAt: read(keys.generatedAt),
    serverUrl: read(keys.serverUrl),
    holdsEnrollmentSecret: typeof values[keys.secret] === 'string' && values[keys.secret] !== '',
  };
}

/**
 * The .reg twin must be exactly the regedit file of the JSON's values: the same settings, in the
 * same order, for the policy key.
 */
function checkRegistryFile(bytes: Uint8Array, json: Uint8Array): void {
  const values = JSON.parse(Buffer.from(json).toString('utf8')) as Record<string, unknown>;
  const writable = Object.values(values).every((value) => typeof value === 'string' || (Number.isInteger(value) && (value as number) >= 0));
  if (!writable || !registryFile(values as Record<string, string | number>).equals(Buffer.from(bytes))) {
    throw new AgentConfigVerificationError(
      `${nativeConfigFileNames.windowsRegistry} does not hold the same settings as ${nativeConfigFileNames.windowsJson}`,
    );
  }
}
