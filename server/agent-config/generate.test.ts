import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { agentCodeRequirement } from './agent-identity.js';
import { AgentConfigInputError, AgentConfigSigningError } from './errors.js';
import { generateAgentConfig, type GenerateAgentConfigInput } from './generate.js';
import { createSigningIdentity, type SigningIdentity } from './signing-identity.js';
import { opensslCmsVerify, pythonPlist, pythonZipNames, tempFiles } from '../test/support/admin-tools.js';
import { extractProfile, verifyAgentConfig } from './verify.js';

const organization = { id: '5f2b8c1e-7a3d-4e9f-8b6a-1c2d3e4f5a6b', slug: 'acme', name: 'Acme & Söhne <IT>' };
const secret = 'enroll-Zq8\\"secret-ü';
const serverUrl = 'https://console.acme.example:7300';
const teamId = 'Q7M3K9D2XP';
const bundleId = 'com.acme.remediation-agent';
const files = tempFiles();
let signer: SigningIdentity;
let caFile: string;

beforeAll(async () => {
  signer = await createSigningIdentity(organization);
  caFile = files.write('org-cert.pem', signer.certificatePem);
});
afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

function generate(platform: GenerateAgentConfigInput['platform'], profile: GenerateAgentConfigInput['profile']) {
  return generateAgentConfig({ platform, profile, organization, enrollmentSecret: secret, serverUrl, teamId, bundleId, signer });
}

type Dict = Record<string, unknown>;
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

describe.each(['mdm-full', 'mdm-permissions'] as const)('macos %s', (profile) => {
  let bytes: Buffer;
  let path: string;
  let configId: string;
  let profilePlist: Dict;
  const before = new Date();

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
    expect(profilePlist.PayloadType).toBe('Configuration');
  });

  it('is a System-scoped Configuration profile with stable identifiers and fresh v4 UUIDs', () => {
    expect(profilePlist).toMatchObject({
      PayloadVersion: 1,
      PayloadIdentifier: `com.remediationconsole.agent.acme.${profile}`,
      PayloadScope: 'System',
      PayloadOrganization: organization.name,
      RemediationConsoleOrganizationID: organization.id,
      RemediationConsoleConfigID: configId,
      RemediationConsoleProfile: profile,
    });
    expect(profilePlist.PayloadUUID).toMatch(uuidV4);
    expect(String(profilePlist.PayloadDisplayName)).toContain(organization.name);
    expect(String(profilePlist.PayloadDescription)).toContain(organization.id);
    expect(String(profilePlist.PayloadDescription)).toContain(configId);
    const generatedAt = Date.parse(String(profilePlist.RemediationConsoleGeneratedAt));
    expect(generatedAt).toBeGreaterThanOrEqual(before.getTime());
    expect(generatedAt).toBeLessThanOrEqual(Date.now());
    for (const payload of profilePlist.PayloadContent as Dict[]) {
      expect(payload.PayloadVersion).toBe(1);
      expect(payload.PayloadUUID).toMatch(uuidV4);
      expect(String(payload.PayloadIdentifier)).toMatch(new RegExp(`^com\\.remediationconsole\\.agent\\.acme\\.${profile}\\.[a-z-]+$`));
    }
  });

  it('holds the permission payloads, and the settings payload only in mdm-full', () => {
    const payloads = profilePlist.PayloadContent as Dict[];
    const types = payloads.map((payload) => payload.PayloadType);
    const permissionTypes = ['com.apple.TCC.configuration-profile-policy', 'com.apple.notificationsettings', 'com.apple.servicemanagement'];
    expect(types).toEqual(profile === 'mdm-full' ? ['com.remediationconsole.agent', ...permissionTypes] : permissionTypes);

    const tcc = payloads.find((payload) => payload.PayloadType === 'com.apple.TCC.configuration-profile-policy')!;
    expect((tcc.Services as Dict).SystemPolicyAllFiles).toEqual([
      expect.objectContaining({
        Allowed: true,
        IdentifierType: 'bundleID',
        Identifier: 'com.remediationconsole.agent',
        CodeRequirement: agentCodeRequirement,
      }),
    ]);
    expect(agentCodeRequirement).toMatch(/certificate leaf\[subject\.OU\] = "[A-Z0-9]{10}"$/);
    const notifications = payloads.find((payload) => payload.PayloadType === 'com.apple.notificationsettings')!;
    expect(notifications.NotificationSettings).toEqual([
      expect.objectContaining({ BundleIdentifier: 'com.remediationconsole.agent', NotificationsEnabled: true, AlertType: 1 }),
    ]);
    const loginItems = payloads.find((payload) => payload.PayloadType === 'com.apple.servicemanagement')!;
    expect((loginItems.Rules as Dict[]).map((rule) => rule.RuleType)).toEqual(['TeamIdentifier', 'BundleIdentifier']);

    if (profile === 'mdm-full') {
      expect(payloads[0]).toMatchObject({
        ServerURL: serverUrl,
        OrganizationID: organization.id,
        EnrollmentSecret: secret,
        ConfigID: configId,
        GeneratedAt: profilePlist.RemediationConsoleGeneratedAt,
      });
    }
  });

  it(profile === 'mdm-full' ? 'carries the enrollment secret' : 'never carries the enrollment secret', () => {
    expect(bytes.includes(Buffer.from(secret))).toBe(profile === 'mdm-full');
    expect(bytes.includes(Buffer.from('EnrollmentSecret'))).toBe(profile === 'mdm-full');
  });

  it('verifies with verifyAgentConfig, with and without the certificate', async () => {
    const expected = {
      kind: 'mobileconfig',
      platform: 'macos',
      profile,
      organizationId: organization.id,
      configId,
      generatedAt: profilePlist.RemediationConsoleGeneratedAt,
      files: [],
      payloads: (profilePlist.PayloadContent as Dict[]).map((payload) => payload.PayloadType),
    };
    const report = await verifyAgentConfig(bytes, { certificatePem: signer.certificatePem });
    expect(report).toMatchObject(expected);
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
  ['macos', ['com.remediationconsole.agent.plist']],
  ['windows', ['RemediationConsoleAgent.reg', 'agent.json']],
  ['linux', ['agent.yaml']],
] as const)('%s config', (platform, configFiles) => {
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

  it('signs each file with a detached signature that openssl cms verifies', () => {
    const dir = join(files.dir, platform);
    for (const name of configFiles) {
      const content = files.write(`${platform}-${name}`, entries[name]!);
      const signature = files.write(`${platform}-${name}.p7s`, entries[`${name}.p7s`]!);
      const run = opensslCmsVerify({ signature, caFile, content });
      expect(run.stderr, `${dir}/${name}`).toContain('Verification successful');
      expect(run.status).toBe(0);
    }
    expect(Buffer.from(entries['signer.pem']!).toString()).toBe(signer.certificatePem);
  });

  it('holds the settings in the platform format', () => {
    const expected = {
      ServerURL: serverUrl,
      OrganizationID: organization.id,
      EnrollmentSecret: secret,
      ConfigID: configId,
      LogLevel: 'info',
      CheckInIntervalSeconds: 300,
    };
    if (platform === 'macos') {
      const plist = pythonPlist(files.write('managed.plist', entries['com.remediationconsole.agent.plist']!)) as Dict;
      expect(plist).toMatchObject(expected);
      expect(Date.parse(String(plist.GeneratedAt))).not.toBeNaN();
    }
    if (platform === 'windows') {
      const json = JSON.parse(Buffer.from(entries['agent.json']!).toString('utf8')) as Dict;
      expect(json).toMatchObject(expected);
      const reg = Buffer.from(entries['RemediationConsoleAgent.reg']!);
      expect([...reg.subarray(0, 2)]).toEqual([0xff, 0xfe]);
      const text = reg.subarray(2).toString('utf16le');
      expect(text.startsWith('Windows Registry Editor Version 5.00\r\n\r\n')).toBe(true);
      expect(text).toContain('\r\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\RemediationConsole\\Agent]\r\n');
      expect(text).toContain(`\r\n"ServerURL"="${serverUrl}"\r\n`);
      expect(text).toContain('\r\n"EnrollmentSecret"="enroll-Zq8\\\\\\"secret-ü"\r\n');
      expect(text).toContain(`\r\n"ConfigID"="${configId}"\r\n`);
      expect(text).toContain('\r\n"CheckInIntervalSeconds"=dword:0000012c\r\n');
    }
    if (platform === 'linux') {
      const text = Buffer.from(entries['agent.yaml']!).toString('utf8');
      expect(text).toMatch(/^# .*\/etc\/remediation-console\/agent\.yaml/);
      expect(parseYaml(text)).toMatchObject({
        server_url: serverUrl,
        organization_id: organization.id,
        enrollment_secret: secret,
        config_id: configId,
        log_level: 'info',
        check_in_interval_seconds: 300,
      });
      expect(text).toMatch(/^generated_at: "\d{4}-\d\d-\d\dT/m);
    }
  });

  it('verifies with verifyAgentConfig, with and without the certificate', async () => {
    const report = await verifyAgentConfig(bytes, { certificatePem: signer.certificatePem });
    expect(report).toMatchObject({ kind: 'zip', platform, profile: 'config', organizationId: organization.id, configId, payloads: [] });
    expect(report.files).toEqual(Object.keys(entries));
    expect(await verifyAgentConfig(bytes)).toEqual(report);
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
  });

  it('refuses an unknown platform or profile, and settings it cannot write', async () => {
    const base = { platform: 'macos', profile: 'config', organization, enrollmentSecret: secret, serverUrl, teamId, bundleId, signer } as const;
    await expect(generateAgentConfig({ ...base, platform: 'beos' as never })).rejects.toMatchObject({ problem: 'invalid-platform' });
    await expect(generateAgentConfig({ ...base, profile: 'full' as never })).rejects.toMatchObject({ problem: 'invalid-profile' });
    await expect(generateAgentConfig({ ...base, serverUrl: 'ftp://x' })).rejects.toMatchObject({ problem: 'invalid-input' });
    await expect(generateAgentConfig({ ...base, enrollmentSecret: '' })).rejects.toMatchObject({ problem: 'invalid-input' });
    await expect(generateAgentConfig({ ...base, enrollmentSecret: 'a\nb' })).rejects.toMatchObject({ problem: 'invalid-input' });
  });

  it('refuses a signing key that does not belong to the certificate, or an unreadable one', async () => {
    const other = await createSigningIdentity({ ...organization, id: '5f2b8c1e-7a3d-4e9f-8b6a-1c2d3e4f5a6c' });
    const base = { platform: 'macos', profile: 'mdm-full', organization, enrollmentSecret: secret, serverUrl, teamId, bundleId } as const;
    const mismatched = generateAgentConfig({ ...base, signer: { privateKeyPem: other.privateKeyPem, certificatePem: signer.certificatePem } });
    await expect(mismatched).rejects.toBeInstanceOf(AgentConfigSigningError);
    await expect(mismatched).rejects.toThrow('The signing key does not belong to the signing certificate');
    const unreadable = generateAgentConfig({ ...base, signer: { privateKeyPem: 'nope', certificatePem: signer.certificatePem } });
    await expect(unreadable).rejects.toThrow(/The signing key cannot be read/);
  });

  it('uses the given generation time', async () => {
    const now = new Date('2030-01-02T03:04:05.678Z');
    const generated = await generateAgentConfig({ platform: 'linux', profile: 'config', organization, enrollmentSecret: secret, serverUrl, teamId, bundleId, signer, now });
    expect((await verifyAgentConfig(generated.bytes)).generatedAt).toBe(now.toISOString());
  });
});
