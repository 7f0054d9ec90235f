/**
 * Verification of a configuration ZIP: every file has a valid detached signature by the one
 * signer, nothing unsigned rides along, and the settings read back.
 */
import { X509Certificate } from 'node:crypto';
import { unzipSync } from 'fflate';
import { parse as parsePlist } from 'plist';
import { parse as parseYaml } from 'yaml';
import type { AgentPlatform } from '../../contracts/enums.js';
import { windowsPolicyKey } from './agent-identity.js';
import type { ConfigRecord } from './agent-settings.js';
import { verifyCms } from './cms-verifier.js';
import { AgentConfigVerificationError } from './errors.js';
import { detachedSignatureExtension, signerCertificateFileName } from './generate.js';
import { nativeConfigFileNames } from './native-config-files.js';
import { type AgentConfigReport, describeSigner } from './verify-report.js';

/** Far above any real configuration ZIP: refuses archives that would unpack into gigabytes. */
const maxUnpackedBytes = 16 * 1024 * 1024;
const maxEntries = 64;

const platformFiles: Record<AgentPlatform, readonly string[]> = {
  macos: [nativeConfigFileNames.macosPlist],
  windows: [nativeConfigFileNames.windowsRegistry, nativeConfigFileNames.windowsJson],
  linux: [nativeConfigFileNames.linuxYaml],
};

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

  const platform = (Object.keys(platformFiles) as AgentPlatform[]).find((p) => platformFiles[p].every((name) => name in entries));
  if (!platform) throw fail('holds no agent configuration file');
  const expectedNames = new Set([
    signerCertificateFileName,
    ...platformFiles[platform].flatMap((name) => [name, `${name}${detachedSignatureExtension}`]),
  ]);
  const unexpected = names.find((name) => !expectedNames.has(name));
  if (unexpected) throw fail(`holds a file that is not part of a ${platform} configuration: ${unexpected}`);
  const missing = [...expectedNames].find((name) => !(name in entries));
  if (missing) throw fail(`lacks ${missing}`);

  for (const name of platformFiles[platform]) {
    await verifyCms(entries[`${name}${detachedSignatureExtension}`]!, {
      label: `${name}${detachedSignatureExtension}`,
      detachedContent: entries[name]!,
      expectedCertificate: expectedCertificate ?? Buffer.from(zipSigner.raw),
    });
  }

  const record = readRecord(platform, entries);
  return {
    kind: 'zip',
    platform,
    profile: 'config',
    ...record,
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

/** The record of the file, read from the platform's configuration file(s). */
function readRecord(platform: AgentPlatform, entries: Record<string, Uint8Array>): ConfigRecord {
  const text = (name: string) => Buffer.from(entries[name]!).toString('utf8');
  switch (platform) {
    case 'macos':
      return pick(nativeConfigFileNames.macosPlist, () => parsePlist(text(nativeConfigFileNames.macosPlist)), {
        organizationId: 'OrganizationID',
        configId: 'ConfigID',
        generatedAt: 'GeneratedAt',
      });
    case 'linux':
      return pick(nativeConfigFileNames.linuxYaml, () => parseYaml(text(nativeConfigFileNames.linuxYaml)), {
        organizationId: 'organization_id',
        configId: 'config_id',
        generatedAt: 'generated_at',
      });
    case 'windows': {
      const record = pick(nativeConfigFileNames.windowsJson, () => JSON.parse(text(nativeConfigFileNames.windowsJson)), {
        organizationId: 'OrganizationID',
        configId: 'ConfigID',
        generatedAt: 'GeneratedAt',
      });
      checkRegistryFile(entries[nativeConfigFileNames.windowsRegistry]!, record);
      return record;
    }
  }
}

function pick(name: string, parse: () => unknown, keys: Record<keyof ConfigRecord, string>): ConfigRecord {
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
  return { organizationId: read(keys.organizationId), configId: read(keys.configId), generatedAt: read(keys.generatedAt) };
}

/** The .reg twin must be a regedit file for the policy key recording the same configuration. */
function checkRegistryFile(bytes: Uint8Array, record: ConfigRecord): void {
  const name = nativeConfigFileNames.windowsRegistry;
  const buffer = Buffer.from(bytes);
  if (buffer[0] !== 0xff || buffer[1] !== 0xfe) throw new AgentConfigVerificationError(`${name} is not UTF-16LE with a byte-order mark`);
  const text = buffer.subarray(2).toString('utf16le');
  const expected = [
    'Windows Registry Editor Version 5.00',
    `[${windowsPolicyKey}]`,
    `"OrganizationID"="${record.organizationId}"`,
    `"ConfigID"="${record.configId}"`,
  ];
  if (!text.startsWith(expected[0]!) || !expected.every((line) => text.includes(`${line}\r\n`))) {
    throw new AgentConfigVerificationError(`${name} does not hold the same configuration as ${nativeConfigFileNames.windowsJson}`);
  }
}
