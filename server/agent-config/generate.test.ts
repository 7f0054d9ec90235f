import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { AgentConfigInputError, AgentConfigSigningError } from './errors.js';
import { agentConfigContents } from './file-contents.js';
import { generateAgentConfig, type GenerateAgentConfigInput } from './generate.js';
import { createSigningIdentity, type SigningIdentity } from './signing-identity.js';
import { opensslCmsVerify, pythonPlist, pythonZipNames, tempFiles } from '../test/support/admin-tools.js';
import { hivexMissing, mergeIntoEmptyHive } from '../test/support/registry-hive.js';
import { extractProfile, verifyAgentConfig } from './verify.js';

const organization = { id: '5f2b8c1e-7a3d-4e9f-8b6a-1c2d3e4f5a6b', slug: 'acme', name: 'Acme & Söhne <IT>' };
const secret = 'enroll-Zq8\\"secret-ü';
/** An organization's agent settings, as an admin configures them. */
const configured = { serverUrl: 'https://agents.example.com', teamId: 'Q7M3K9D2XP', bundleId: 'com.acme.remediation-agent' };
const { serverUrl, teamId, bundleId } = configured;
const now = new Date('2031-05-06T07:08:09.123Z');
const files = tempFiles();
let signer: SigningIdentity;
let caFile: string;

beforeAll(async () => {
  signer = await createSigningIdentity(organization);
  caFile = files.write('org-cert.pem', signer.certificatePem);
});
afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

function generate(platform: GenerateAgentConfigInput['platform'], profile: GenerateAgentConfigInput['profile']) {
  return generateAgentConfig({ platform, profile, organization, enrollmentSecret: secret, signer, now, ...configured });
}

type Dict = Record<string, unknown>;
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** Any way of writing the machine's own address. */
const loopback = /\b127\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|localhost|\[::1\]|0\.0\.0\.0/i;
const requirement =
  `identifier "${bundleId}" and anchor apple generic and certificate 1[field.1.2.840.113635.100.6.2.6] and ` +
  `certificate leaf[field.1.2.840.113635.100.6.1.13] and certificate leaf[subject.OU] = "${teamId}"`;

/** What every file tells an agent, by the plist, registry and JSON names; ConfigID is each file's own. */
function expectedSettings(configId: string) {
  return {
    ServerURL: serverUrl,
    OrganizationID: organization.id,
    EnrollmentSecret: secret,
    ConfigID: configId,
    GeneratedAt: now.toISOString(),
    LogLevel: 'info',
    CheckInIntervalSeconds: 300,
    InventoryIntervalSeconds: 3600,
    RequestTimeoutSeconds: 30,
  };
}

describe.each(['mdm-full', 'mdm-permissions'] as const)('macos %s with configured settings', (profile) => {
  let bytes: Buffer;
  let path: string;
  let configId: string;
  let profilePlist: Dict;
  let payloads: Dict[];
  const payloadOf = (type: string) => payloads.find((payload) => payload.PayloadType === type)!;

  beforeAll(async () => {
    const generated = await generate('macos', profile);
    expect(generated.filename).toBe(`remediation-agent-acme-macos-${profile}.mobileconfig`);
    ({ bytes, configId } = generated);
    path = files.write(generated.filename, bytes);
  });

  it('verifies with openssl cms against the organization certificate, and the profile parses with plistlib', () => {
    const out = join(files.dir, `${profile}.plist`);
    const run = opensslCmsVerify({ signature: path, caFile, out });
    expect(run.stderr).toContain('Verification successful');
    expect(run.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(extractProfile(bytes));
    profilePlist = pythonPlist(out) as Dict;
    payloads = profilePlist.PayloadContent as Dict[];
    expect(profilePlist.PayloadType).toBe('Configuration');
  });

  it('is a System-scoped Configuration profile with stable identifiers, fresh v4 UUIDs and its record in PayloadDescription', () => {
    expect(Object.keys(profilePlist).filter((key) => key.startsWith('RemediationConsole'))).toEqual([]);
    expect(profilePlist).toMatchObject({
      PayloadVersion: 1,
      PayloadIdentifier: `com.remediationconsole.agent.acme.${profile}`,
      PayloadScope: 'System',
      PayloadOrganization: organization.name,
      TargetDeviceType: 5,
    });
    expect(profilePlist.PayloadUUID).toMatch(uuidV4);
    expect(String(profilePlist.PayloadDisplayName)).toContain(organization.name);
    expect(String(profilePlist.PayloadDescription).split('\n').slice(1)).toEqual([
      `Organization: ${organization.id}`,
      `Configuration: ${configId}`,
      `Generated: ${now.toISOString()}`,
      `Profile: ${profile}`,
    ]);
    for (const payload of payloads) {
      expect(payload.PayloadVersion).toBe(1);
      expect(payload.PayloadUUID).toMatch(uuidV4);
      expect(String(payload.PayloadIdentifier)).toMatch(new RegExp(`^com\\.remediationconsole\\.agent\\.acme\\.${profile}\\.[a-z-]+$`));
    }
  });

  it('holds the payloads agentConfigContents names, and the enrollment secret exactly where it says', () => {
    const contents = agentConfigContents('macos', profile, bundleId);
    expect(payloads.map((payload) => payload.PayloadDisplayName)).toEqual(contents.contents);
    expect(contents.needsUserApprovedMdm).toBe(true);
    expect(bytes.includes(Buffer.from(secret))).toBe(contents.holdsEnrollmentSecret);
    expect(bytes.includes(Buffer.from('EnrollmentSecret'))).toBe(contents.holdsEnrollmentSecret);
    expect(contents.holdsEnrollmentSecret).toBe(profile === 'mdm-full');
  });

  it('grants full disk access to the configured bundle id, pinned to the configured Team ID by its code requirement', () => {
    expect((payloadOf('com.apple.TCC.configuration-profile-policy').Services as Dict).SystemPolicyAllFiles).toEqual([
      expect.objectContaining({ Allowed: true, IdentifierType: 'bundleID', Identifier: bundleId, CodeRequirement: requirement, StaticCode: false }),
    ]);
    expect(payloadOf('com.apple.notificationsettings').NotificationSettings).toEqual([
      expect.objectContaining({ BundleIdentifier: bundleId, NotificationsEnabled: true, AlertType: 1 }),
    ]);
  });

  it('manages the login items of the configured Team ID and bundle id', () => {
    expect(payloadOf('com.apple.servicemanagement').Rules).toEqual([
      expect.objectContaining({ RuleType: 'TeamIdentifier', RuleValue: teamId }),
      expect.objectContaining({ RuleType: 'BundleIdentifier', RuleValue: bundleId, TeamIdentifier: teamId }),
    ]);
  });

  it(profile === 'mdm-full' ? 'carries the settings as forced managed preferences of the bundle id' : 'carries no settings', () => {
    const settings = payloads.find((payload) => payload.PayloadType === 'com.apple.ManagedClient.preferences');
    if (profile === 'mdm-permissions') return expect(settings).toBeUndefined();
    expect(settings!.PayloadContent).toEqual({ [bundleId]: { Forced: [{ mcx_preference_settings: expectedSettings(configId) }] } });
  });

  it('names no loopback address and no other Team ID', () => {
    const text = extractProfile(bytes);
    expect(text).not.toMatch(loopback);
    expect(bytes.toString('latin1')).not.toMatch(loopback);
    // Every word of a Team ID's shape is the configured one: no placeholder, no other team.
    expect(new Set(text.match(/\b[A-Z0-9]{10}\b/g))).toEqual(new Set([teamId]));
  });

  it('verifies with verifyAgentConfig, with and without the certificate, reporting what it holds', async () => {
    const report = await verifyAgentConfig(bytes, { certificatePem: signer.certificatePem });
    expect(report).toMatchObject({
      kind: 'mobileconfig',
      platform: 'macos',
      profile,
      organizationId: organization.id,
      configId,
      generatedAt: now.toISOString(),
      serverUrl: profile === 'mdm-full' ? serverUrl : null,
      teamId,
      bundleId,
      holdsEnrollmentSecret: profile === 'mdm-full',
      files: [],
      payloads: payloads.map((payload) => payload.PayloadType),
    });
    // RFC 4514 escaping, as Node (OpenSSL) prints a subject.
    expect(report.signer.subject).toBe('O=Acme & Söhne \\<IT\\>, CN=Acme & Söhne \\<IT\\> agent configuration signing');
    expect(await verifyAgentConfig(bytes)).toEqual(report);
  });
});

describe('macos profiles generated twice', () => {
  it('get new PayloadUUIDs and config ids, and keep their PayloadIdentifiers', async () => {
    const identities = async () => {
      const generated = await generate('macos', 'mdm-full');
      const profile = pythonPlist(files.write(`twice-${generated.configId}.plist`, extractProfile(generated.bytes))) as Dict;
      const payloads = [profile, ...(profile.PayloadContent as Dict[])];
      return {
        configId: generated.configId,
        uuids: payloads.map((payload) => payload.PayloadUUID),
        identifiers: payloads.map((payload) => payload.PayloadIdentifier),
      };
    };
    const first = await identities();
    const second = await identities();
    expect(second.identifiers).toEqual(first.identifiers);
    expect(new Set([...first.uuids, ...second.uuids]).size).toBe(first.uuids.length * 2);
    expect(second.configId).not.toBe(first.configId);
    expect(first.configId).toMatch(uuidV4);
  });
});

describe.each([
  ['macos', [`${bundleId}.plist`]],
  ['windows', ['RemediationConsoleAgent.reg', 'agent.json']],
  ['linux', ['agent.yaml']],
] as const)('%s config with configured settings', (platform, configFiles) => {
  let bytes: Buffer;
  let configId: string;
  let entries: Record<string, Uint8Array>;

  beforeAll(async () => {
    const generated = await generate(platform, 'config');
    expect(generated.filename).toBe(`remediation-agent-acme-${platform}-config.zip`);
    ({ bytes, configId } = generated);
    const zipPath = files.write(generated.filename, bytes);
    entries = unzipSync(bytes);
    const expectedNames = [...configFiles.flatMap((name) => [name, `${name}.p7s`]), 'signer.pem'];
    expect(pythonZipNames(zipPath)).toEqual(expectedNames);
    expect(Object.keys(entries)).toEqual(expectedNames);
  });

  it('holds the entries agentConfigContents names, every configuration file with the secret', () => {
    const contents = agentConfigContents(platform, 'config', bundleId);
    expect(Object.keys(entries)).toEqual(contents.contents);
    expect(contents).toMatchObject({ holdsEnrollmentSecret: true, needsUserApprovedMdm: false });
  });

  it('signs each file with a detached signature that openssl cms verifies', () => {
    for (const name of configFiles) {
      const content = files.write(`${platform}-${name}`, entries[name]!);
      const signature = files.write(`${platform}-${name}.p7s`, entries[`${name}.p7s`]!);
      const run = opensslCmsVerify({ signature, caFile, content });
      expect(run.stderr, name).toContain('Verification successful');
      expect(run.status).toBe(0);
    }
    expect(Buffer.from(entries['signer.pem']!).toString()).toBe(signer.certificatePem);
  });

  it('names no loopback address, and no Team ID: nothing on these platforms pins one', () => {
    for (const [name, content] of Object.entries(entries)) {
      const text = Buffer.from(content).toString(name.endsWith('.reg') ? 'utf16le' : 'latin1');
      expect(text, name).not.toMatch(loopback);
      expect(text, name).not.toContain(teamId);
    }
  });

  it('verifies with verifyAgentConfig, with and without the certificate, reporting what it holds', async () => {
    const report = await verifyAgentConfig(bytes, { certificatePem: signer.certificatePem });
    expect(report).toMatchObject({
      kind: 'zip',
      platform,
      profile: 'config',
      organizationId: organization.id,
      configId,
      generatedAt: now.toISOString(),
      serverUrl,
      teamId: null,
      bundleId: platform === 'macos' ? bundleId : null,
      holdsEnrollmentSecret: true,
      payloads: [],
    });
    expect(report.files).toEqual(Object.keys(entries));
    expect(await verifyAgentConfig(bytes)).toEqual(report);
  });
});

describe('every format carries exactly the same settings', () => {
  /** Each format's settings as its own parser reads them, ConfigID apart (each file has its own). */
  const read: Record<string, { configId: string; settings: Dict }> = {};
  const zipOf = async (platform: 'macos' | 'windows' | 'linux') => {
    const generated = await generate(platform, 'config');
    return { configId: generated.configId, entries: unzipSync(generated.bytes) };
  };

  beforeAll(async () => {
    const macos = await zipOf('macos');
    read.plist = { configId: macos.configId, settings: pythonPlist(files.write('same.plist', macos.entries[`${bundleId}.plist`]!)) as Dict };
    const windows = await zipOf('windows');
    read.json = { configId: windows.configId, settings: JSON.parse(Buffer.from(windows.entries['agent.json']!).toString('utf8')) as Dict };
    const linux = await zipOf('linux');
    const yaml = parseYaml(Buffer.from(linux.entries['agent.yaml']!).toString('utf8')) as Dict;
    const snakeToPascal: Record<string, string> = {
      server_url: 'ServerURL',
      organization_id: 'OrganizationID',
      enrollment_secret: 'EnrollmentSecret',
      config_id: 'ConfigID',
      generated_at: 'GeneratedAt',
      log_level: 'LogLevel',
      check_in_interval_seconds: 'CheckInIntervalSeconds',
      inventory_interval_seconds: 'InventoryIntervalSeconds',
      request_timeout_seconds: 'RequestTimeoutSeconds',
    };
    expect(Object.keys(yaml)).toEqual(Object.keys(snakeToPascal));
    read.yaml = { configId: linux.configId, settings: Object.fromEntries(Object.entries(yaml).map(([key, value]) => [snakeToPascal[key], value])) };
    const full = await generate('macos', 'mdm-full');
    const profile = pythonPlist(files.write('same-full.plist', extractProfile(full.bytes))) as Dict;
    const managed = (profile.PayloadContent as Dict[])[0]!.PayloadContent as Record<string, { Forced: { mcx_preference_settings: Dict }[] }>;
    read.mobileconfig = { configId: full.configId, settings: managed[bundleId]!.Forced[0]!.mcx_preference_settings };
  });

  it.each(['plist', 'json', 'yaml', 'mobileconfig'])('%s', (format) => {
    expect(read[format]!.settings).toEqual(expectedSettings(read[format]!.configId));
  });

  const missing = hivexMissing();
  it.skipIf(missing !== undefined)(`the .reg, merged by hivexregedit into an empty hive${missing ? ` (skipped: ${missing})` : ''}`, async () => {
    const generated = await generate('windows', 'config');
    const entries = unzipSync(generated.bytes);
    const reg = Buffer.from(entries['RemediationConsoleAgent.reg']!);
    // What regedit writes: UTF-16LE with a byte-order mark, CRLF lines, its version header first.
    expect([...reg.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const text = reg.subarray(2).toString('utf16le');
    expect(text.startsWith('Windows Registry Editor Version 5.00\r\n\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    const values = mergeIntoEmptyHive(reg, 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\RemediationConsole\\Agent');
    const expected = expectedSettings(generated.configId);
    expect(values).toEqual(
      Object.entries(expected).map(([name, value]) => ({ name, type: typeof value === 'number' ? 4 : 1, value })),
    );
    const json = JSON.parse(Buffer.from(entries['agent.json']!).toString('utf8')) as Dict;
    expect(Object.fromEntries(values.map(({ name, value }) => [name, value]))).toEqual(json);
  });
});

describe('generateAgentConfig input', () => {
  it.each([
    ['windows', 'mdm-full'],
    ['windows', 'mdm-permissions'],
    ['linux', 'mdm-full'],
    ['linux', 'mdm-permissions'],
  ] as const)('refuses %s with %s, naming the combination', async (platform, profile) => {
    const attempt = generate(platform, profile);
    await expect(attempt).rejects.toBeInstanceOf(AgentConfigInputError);
    await expect(attempt).rejects.toMatchObject({
      problem: 'invalid-combination',
      message: `Invalid platform/profile combination: profile "${profile}" is only available for platform "macos", not "${platform}"`,
    });
    expect(() => agentConfigContents(platform, profile, bundleId)).toThrow(AgentConfigInputError);
  });

  it('refuses an unknown platform or profile, and settings it cannot write', async () => {
    const base = { platform: 'macos', profile: 'config', organization, enrollmentSecret: secret, signer, ...configured } as const;
    await expect(generateAgentConfig({ ...base, platform: 'beos' as never })).rejects.toMatchObject({ problem: 'invalid-platform' });
    await expect(generateAgentConfig({ ...base, profile: 'full' as never })).rejects.toMatchObject({ problem: 'invalid-profile' });
    await expect(generateAgentConfig({ ...base, serverUrl: 'ftp://x' })).rejects.toMatchObject({ problem: 'invalid-input' });
    await expect(generateAgentConfig({ ...base, enrollmentSecret: '' })).rejects.toMatchObject({ problem: 'invalid-input' });
    await expect(generateAgentConfig({ ...base, enrollmentSecret: 'a\nb' })).rejects.toMatchObject({ problem: 'invalid-input' });
    await expect(generateAgentConfig({ ...base, teamId: 'abcde12345' })).rejects.toMatchObject({ problem: 'invalid-input', message: /Team ID "abcde12345"/ });
    await expect(generateAgentConfig({ ...base, bundleId: 'agent' })).rejects.toMatchObject({ problem: 'invalid-input', message: /bundle id "agent"/ });
    await expect(generateAgentConfig({ ...base, bundleId: 'com.acme.agent"' })).rejects.toMatchObject({ problem: 'invalid-input' });
  });

  it('makes no MDM profile without a Team ID, and a configuration ZIP without one', async () => {
    const base = { platform: 'macos', organization, enrollmentSecret: secret, signer, ...configured, teamId: null } as const;
    for (const profile of ['mdm-full', 'mdm-permissions'] as const) {
      await expect(generateAgentConfig({ ...base, profile })).rejects.toMatchObject({ problem: 'missing-setting', message: /needs the Team ID/ });
    }
    const zip = await generateAgentConfig({ ...base, profile: 'config' });
    expect((await verifyAgentConfig(zip.bytes)).serverUrl).toBe(serverUrl);
  });

  it('refuses a signing key that does not belong to the certificate, or an unreadable one', async () => {
    const other = await createSigningIdentity({ ...organization, id: '5f2b8c1e-7a3d-4e9f-8b6a-1c2d3e4f5a6c' });
    const base = { platform: 'macos', profile: 'mdm-full', organization, enrollmentSecret: secret, ...configured } as const;
    const mismatched = generateAgentConfig({ ...base, signer: { privateKeyPem: other.privateKeyPem, certificatePem: signer.certificatePem } });
    await expect(mismatched).rejects.toBeInstanceOf(AgentConfigSigningError);
    await expect(mismatched).rejects.toThrow('The signing key does not belong to the signing certificate');
    const unreadable = generateAgentConfig({ ...base, signer: { privateKeyPem: 'nope', certificatePem: signer.certificatePem } });
    await expect(unreadable).rejects.toThrow(/The signing key cannot be read/);
  });

  it('uses the current time when none is given', async () => {
    const before = Date.now();
    const generated = await generateAgentConfig({ platform: 'linux', profile: 'config', organization, enrollmentSecret: secret, signer, ...configured });
    const generatedAt = Date.parse((await verifyAgentConfig(generated.bytes)).generatedAt);
    expect(generatedAt).toBeGreaterThanOrEqual(before);
    expect(generatedAt).toBeLessThanOrEqual(Date.now());
  });
});
