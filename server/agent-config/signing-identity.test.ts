import { createPublicKey, X509Certificate } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateFingerprint, createSigningIdentity, type SigningIdentity } from './signing-identity.js';
import { openssl, tempFiles } from '../test/support/admin-tools.js';

const files = tempFiles();
afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

describe('createSigningIdentity', () => {
  let identity: SigningIdentity;
  let certFile: string;
  beforeAll(async () => {
    identity = await createSigningIdentity({ id: '0b7d2f43-3c1a-4e55-8f0e-5a9c1d2e3f40', slug: 'acme', name: 'Acme, Inc.' });
    certFile = files.write('cert.pem', identity.certificatePem);
  });

  it('makes an RSA-2048 key and a self-signed SHA-256 certificate naming the organization', () => {
    const text = openssl(['x509', '-in', certFile, '-noout', '-text', '-nameopt', 'RFC2253']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('Public-Key: (2048 bit)');
    expect(text.stdout).toContain('Signature Algorithm: sha256WithRSAEncryption');
    expect(text.stdout).toContain('Subject: CN=Acme\\, Inc. agent configuration signing,O=Acme\\, Inc.');
    expect(text.stdout).toContain('Issuer: CN=Acme\\, Inc. agent configuration signing,O=Acme\\, Inc.');
    expect(text.stdout).toMatch(/Key Usage: critical\s+Digital Signature\n/);
    expect(text.stdout).toMatch(/Extended Key Usage:\s+E-mail Protection, Code Signing/);
    expect(text.stdout).toContain('X509v3 Subject Key Identifier');
    // Self-signed: it verifies against itself as the only trust anchor.
    expect(openssl(['verify', '-CAfile', certFile, '-purpose', 'smimesign', certFile]).status).toBe(0);
  });

  it('is valid for ten years from now', () => {
    const certificate = new X509Certificate(identity.certificatePem);
    const years = (Date.parse(certificate.validTo) - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(9.99);
    expect(years).toBeLessThan(10.01);
    expect(Date.parse(certificate.validFrom)).toBeLessThanOrEqual(Date.now());
  });

  it('pairs the private key with the certificate', () => {
    const fromKey = createPublicKey(identity.privateKeyPem).export({ type: 'spki', format: 'pem' });
    expect(new X509Certificate(identity.certificatePem).publicKey.export({ type: 'spki', format: 'pem' })).toBe(fromKey);
    expect(identity.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('gives each identity its own key and random serial', async () => {
    const other = await createSigningIdentity({ id: '0b7d2f43-3c1a-4e55-8f0e-5a9c1d2e3f41', slug: 'acme', name: 'Acme, Inc.' });
    const a = new X509Certificate(identity.certificatePem);
    const b = new X509Certificate(other.certificatePem);
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.serialNumber).toMatch(/^[0-9A-F]{30,32}$/);
    expect(other.privateKeyPem).not.toBe(identity.privateKeyPem);
  });

  it('fingerprints a certificate as openssl does', () => {
    const printed = openssl(['x509', '-in', certFile, '-noout', '-fingerprint', '-sha256']).stdout.trim();
    expect(printed).toBe(`sha256 Fingerprint=${certificateFingerprint(identity.certificatePem)}`);
    expect(certificateFingerprint(identity.certificatePem)).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('keeps long and odd names within the certificate name bounds', async () => {
    const long = await createSigningIdentity({ id: '0b7d2f43-3c1a-4e55-8f0e-5a9c1d2e3f42', slug: 'long', name: `Ünïcödé\n${'x'.repeat(150)}` });
    const subject = new X509Certificate(long.certificatePem).subject;
    const [organization, commonName] = subject.split('\n');
    expect(organization).toMatch(/^O=Ünïcödé x+$/);
    expect(Array.from(organization!.slice(2)).length).toBe(64);
    expect(commonName).toMatch(/^CN=Ünïcödé x+ agent configuration signing$/);
    expect(Array.from(commonName!.slice(3)).length).toBe(64);
  });
});
