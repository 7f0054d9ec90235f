import { X509Certificate } from 'node:crypto';
import { rmSync } from 'node:fs';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCms } from './cms-signer.js';
import { AgentConfigVerificationError } from './errors.js';
import { generateAgentConfig } from './generate.js';
import { createSigningIdentity, type SigningIdentity } from './signing-identity.js';
import { opensslCmsVerify, tempFiles } from '../test/support/admin-tools.js';
import { extractProfile, verifyAgentConfig } from './verify.js';

const orgA = { id: '11111111-2222-4333-8444-555555555555', slug: 'org-a', name: 'Organization A' };
const orgB = { id: '66666666-7777-4888-9999-aaaaaaaaaaaa', slug: 'org-b', name: 'Organization B' };
const files = tempFiles();
let signerA: SigningIdentity;
let signerB: SigningIdentity;
let caA: string;
let caB: string;
let mobileconfig: Buffer;
let zip: Buffer;

beforeAll(async () => {
  [signerA, signerB] = await Promise.all([createSigningIdentity(orgA), createSigningIdentity(orgB)]);
  caA = files.write('a.pem', signerA.certificatePem);
  caB = files.write('b.pem', signerB.certificatePem);
  mobileconfig = (await generateAgentConfig({ ...input(), platform: 'macos', profile: 'mdm-full' })).bytes;
  zip = (await generateAgentConfig({ ...input(), platform: 'linux', profile: 'config' })).bytes;
});
afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

/** Organization A's settings and signer. */
function input() {
  return { organization: orgA, enrollmentSecret: 'secret-a', serverUrl: 'https://a.example', teamId: 'Q7M3K9D2XP', bundleId: 'com.example.agent', signer: signerA };
}

/** A copy with one byte's lowest bit flipped. */
function flipped(bytes: Uint8Array, index: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

async function expectRejected(bytes: Buffer, certificatePem: string | undefined, message: RegExp): Promise<void> {
  const attempt = verifyAgentConfig(bytes, certificatePem === undefined ? {} : { certificatePem });
  await expect(attempt).rejects.toBeInstanceOf(AgentConfigVerificationError);
  await expect(attempt).rejects.toThrow(message);
}

describe('a tampered .mobileconfig', () => {
  it('with a flipped byte in the signed profile fails openssl and verifyAgentConfig', async () => {
    // "Configuration" -> "Bonfiguration": still a well-formed plist, so only the digest can tell.
    const index = mobileconfig.indexOf('<string>Configuration</string>') + '<string>'.length;
    const tampered = flipped(mobileconfig, index);
    expect(tampered.subarray(index, index + 13).toString()).toBe('Bonfiguration');
    expect(opensslCmsVerify({ signature: files.write('content.mobileconfig', tampered), caFile: caA }).status).not.toBe(0);
    await expectRejected(tampered, signerA.certificatePem, /changed after signing/);
    await expectRejected(tampered, undefined, /changed after signing/);
  });

  it('with a flipped byte in the signature fails openssl and verifyAgentConfig', async () => {
    // The RSA signature value is the last element of the structure.
    const tampered = flipped(mobileconfig, mobileconfig.length - 20);
    expect(opensslCmsVerify({ signature: files.write('signature.mobileconfig', tampered), caFile: caA }).status).not.toBe(0);
    await expectRejected(tampered, signerA.certificatePem, /signature does not verify/);
    await expectRejected(tampered, undefined, /signature does not verify/);
  });

  it('with a flipped byte in the signing time (a signed attribute) fails verifyAgentConfig', async () => {
    const index = mobileconfig.indexOf(Buffer.from('06092a864886f70d010905', 'hex')) + 15;
    await expectRejected(flipped(mobileconfig, index), signerA.certificatePem, /signature does not verify/);
  });

  it('with a flipped byte in the embedded certificate fails openssl and verifyAgentConfig', async () => {
    const certificateDer = Buffer.from(new X509Certificate(signerA.certificatePem).raw);
    const index = mobileconfig.indexOf(certificateDer) + certificateDer.length - 300;
    const tampered = flipped(mobileconfig, index);
    expect(opensslCmsVerify({ signature: files.write('cert.mobileconfig', tampered), caFile: caA }).status).not.toBe(0);
    await expectRejected(tampered, signerA.certificatePem, /differs from the expected certificate/);
    await expectRejected(tampered, undefined, /self-signed signer certificate has been altered/);
  });

  it("of organization A does not verify with organization B's certificate", async () => {
    const path = files.write('a.mobileconfig', mobileconfig);
    expect(opensslCmsVerify({ signature: path, caFile: caA }).status).toBe(0);
    expect(opensslCmsVerify({ signature: path, caFile: caB }).status).not.toBe(0);
    await expectRejected(mobileconfig, signerB.certificatePem, /signed by a different certificate/);
  });

  it('that is cut short or is not CMS is unparseable', async () => {
    await expectRejected(mobileconfig.subarray(0, mobileconfig.length - 100), undefined, /is not a CMS signed file/);
    await expectRejected(Buffer.concat([mobileconfig, Buffer.from([0])]), undefined, /bytes after the signed data/);
    await expectRejected(Buffer.from('0\x03\x02\x01\x00'), undefined, /is not a CMS signed file/);
    await expectRejected(Buffer.from('hello'), undefined, /neither a signed \.mobileconfig nor a configuration ZIP/);
    expect(() => extractProfile(Buffer.from('hello'))).toThrow(AgentConfigVerificationError);
  });
});

describe('a tampered configuration ZIP', () => {
  const rezip = (change: (entries: Record<string, Uint8Array>) => void) => {
    const entries = unzipSync(zip);
    change(entries);
    return Buffer.from(zipSync(entries));
  };

  it('with a flipped byte in a configuration file fails openssl and verifyAgentConfig', async () => {
    const entries = unzipSync(zip);
    const content = flipped(entries['agent.yaml']!, Buffer.from(entries['agent.yaml']!).indexOf('https') + 3);
    const run = opensslCmsVerify({ signature: files.write('agent.yaml.p7s', entries['agent.yaml.p7s']!), content: files.write('agent.yaml', content), caFile: caA });
    expect(run.status).not.toBe(0);
    const tampered = rezip((e) => (e['agent.yaml'] = content));
    await expectRejected(tampered, signerA.certificatePem, /agent\.yaml\.p7s: the content does not match its signature/);
    await expectRejected(tampered, undefined, /changed after signing/);
  });

  it('with a flipped byte in a detached signature fails openssl and verifyAgentConfig', async () => {
    const entries = unzipSync(zip);
    const signature = flipped(entries['agent.yaml.p7s']!, entries['agent.yaml.p7s']!.length - 7);
    const run = opensslCmsVerify({ signature: files.write('bad.p7s', signature), content: files.write('agent2.yaml', entries['agent.yaml']!), caFile: caA });
    expect(run.status).not.toBe(0);
    await expectRejected(rezip((e) => (e['agent.yaml.p7s'] = signature)), signerA.certificatePem, /signature does not verify/);
  });

  it("of organization A does not verify with organization B's certificate", async () => {
    const entries = unzipSync(zip);
    const content = files.write('agent3.yaml', entries['agent.yaml']!);
    const signature = files.write('agent3.yaml.p7s', entries['agent.yaml.p7s']!);
    expect(opensslCmsVerify({ signature, content, caFile: caA }).status).toBe(0);
    expect(opensslCmsVerify({ signature, content, caFile: caB }).status).not.toBe(0);
    await expectRejected(zip, signerB.certificatePem, /signed by another certificate/);
  });

  it('whose signer.pem was swapped for another certificate fails even without a given certificate', async () => {
    await expectRejected(
      rezip((e) => (e['signer.pem'] = Buffer.from(signerB.certificatePem))),
      undefined,
      /signed by a different certificate/,
    );
  });

  it('with an unsigned file added, or a file missing, fails', async () => {
    await expectRejected(rezip((e) => (e['install.sh'] = Buffer.from('#!/bin/sh\n'))), undefined, /not part of a linux configuration: install\.sh/);
    await expectRejected(rezip((e) => delete e['agent.yaml.p7s']), undefined, /lacks agent\.yaml\.p7s/);
    await expectRejected(rezip((e) => delete e['signer.pem']), undefined, /has no signer\.pem/);
  });

  it('that is cut short is unparseable', async () => {
    await expectRejected(zip.subarray(0, zip.length - 30), undefined, /cannot be read/);
  });

  it('whose .reg, signed, says another server URL than its agent.json, fails', async () => {
    const windows = (await generateAgentConfig({ ...input(), platform: 'windows', profile: 'config' })).bytes;
    const entries = unzipSync(windows);
    const reg = Buffer.from(entries['RemediationConsoleAgent.reg']!);
    const other = Buffer.from(reg.toString('utf16le').replace('https://a.example', 'https://b.example'), 'utf16le');
    expect(other.equals(reg)).toBe(false);
    entries['RemediationConsoleAgent.reg'] = other;
    entries['RemediationConsoleAgent.reg.p7s'] = new Uint8Array(await signCms(other, signerA, { detached: true, signingTime: new Date() }));
    await expectRejected(Buffer.from(zipSync(entries)), signerA.certificatePem, /RemediationConsoleAgent\.reg does not hold the same settings as agent\.json/);
  });
});

describe('a signed profile that is not sound', () => {
  /** The profile re-signed by organization A after `change` rewrote its XML: the signature is valid. */
  const resigned = (change: (xml: string) => string) =>
    signCms(Buffer.from(change(extractProfile(mobileconfig))), signerA, { detached: false, signingTime: new Date() });

  it('is refused when its payloads name two Team IDs or two bundle ids', async () => {
    const twoTeams = await resigned((xml) => xml.replace(/(<string>TeamIdentifier<\/string>\s*<key>RuleValue<\/key>\s*<string>)Q7M3K9D2XP/, '$1ZZZZZZZZZ9'));
    expect(extractProfile(twoTeams)).toContain('ZZZZZZZZZ9');
    await expectRejected(twoTeams, signerA.certificatePem, /payloads name different Team IDs: Q7M3K9D2XP, ZZZZZZZZZ9/);
    const twoBundles = await resigned((xml) => xml.replace(/(<key>BundleIdentifier<\/key>\s*<string>)com\.example\.agent/, '$1com.other.agent'));
    expect(extractProfile(twoBundles)).toContain('com.other.agent');
    await expectRejected(twoBundles, signerA.certificatePem, /payloads name different bundle ids/);
  });

  it('is refused when its description does not record what it is, or its settings name another configuration', async () => {
    await expectRejected(await resigned((xml) => xml.replace(/Configuration: [0-9a-f-]+\n/, '')), undefined, /does not record its organization, configuration/);
    await expectRejected(await resigned((xml) => xml.replace('Profile: mdm-full', 'Profile: mdm-everything')), undefined, /unknown profile "mdm-everything"/);
    await expectRejected(await resigned((xml) => xml.replace('Profile: mdm-full', 'Profile: mdm-permissions')), undefined, /mdm-permissions profile must hold no agent settings payload/);
    await expectRejected(
      // Another first digit: one that is already an f stays different as a 0.
      await resigned((xml) => xml.replace(/(<key>ConfigID<\/key>\s*<string>)([0-9a-f])/, (_match, key: string, digit: string) => key + (digit === 'f' ? '0' : 'f'))),
      undefined,
      /settings payload names another organization, configuration or time/,
    );
  });
});

describe('verifyAgentConfig options', () => {
  it('refuses a certificate it cannot read', async () => {
    await expectRejected(mobileconfig, 'not a certificate', /The given certificate cannot be read/);
  });
});
