/**
 * A report of two organizations (issue 40) through the app the product builds, on two seeded
 * demo organizations: signed by each one's identity in one detached CMS signature, which
 * openssl verifies signer by signer and the real `verify` command prints signer by signer; a
 * copy edited, or signed without one of them or by another identity, refused; and a technical
 * report's appendix naming each row's organization, checked against /v1 of each; the report
 * listed and read under each organization it covers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFigures, ReportSummary } from '../../contracts/console/reports.js';
import { generateInventory } from '../demo/generate.js';
import { runCli } from './support/cli-binary.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';

let server: ConsoleTestServer;
let folder: string;
const nowMs = Date.UTC(2026, 6, 1, 9, 30);
const slugs = ['acme', 'globex'] as const;
const filter = 'severity=critical';

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-report-orgs-'));
  server = await startConsoleTestServer(
    [
      { slug: 'acme', inventory: generateInventory('demo', 7) },
      { slug: 'globex', inventory: generateInventory('demo', 8) },
    ],
    { clock: () => nowMs },
  );
}, 120_000);
afterAll(async () => {
  await server.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** A report file as the API serves it. */
async function read(id: string, format: string): Promise<Buffer> {
  const response = await fetch(`${server.url}/app/orgs/acme/reports/${id}?format=${format}`, { headers: { 'x-console-token': server.consoleToken } });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function makeReport(template: 'executive' | 'technical'): Promise<ReportSummary> {
  const made = await server.app('/orgs/acme/reports', { method: 'POST', body: { filter, template, organizations: slugs } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as ReportSummary;
}

/** Writes a report and its signature as `name` and `name.p7s` in the test's folder; answers the report's path. */
function writeReport(name: string, html: Buffer, signature: Buffer): string {
  const file = path.join(folder, name);
  fs.writeFileSync(file, html);
  fs.writeFileSync(`${file}.p7s`, signature);
  return file;
}

/** `openssl cms -verify` of FILE against FILE.p7s, the signers' certificates written to `signersOut`; the chain not checked (self-signed identities). */
function opensslVerify(file: string, signersOut = '/dev/null') {
  return spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `${file}.p7s`, '-content', file, '-noverify', '-signer', signersOut, '-out', '/dev/null'], { encoding: 'utf8' });
}

const certificateOf = (slug: string) => server.store.organizations.bySlug(slug)!.certificatePem!;
const fingerprintOf = (pem: string) => execFileSync('openssl', ['x509', '-noout', '-fingerprint', '-sha256'], { input: pem, encoding: 'utf8' }).trim().split('=')[1]!;

describe('a report of two organizations', () => {
  let report: ReportSummary;
  let html: Buffer;
  let signature: Buffer;

  beforeAll(async () => {
    report = await makeReport('executive');
    html = await read(report.id, 'html');
    signature = await read(report.id, 'p7s');
  }, 120_000);

  it('is signed by each organization\'s identity: openssl verifies every signer, and refuses an edited copy', () => {
    expect(report.organizations).toEqual([...slugs]);
    const file = writeReport('both.html', html, signature);
    const signersFile = path.join(folder, 'signers.pem');
    const verified = opensslVerify(file, signersFile);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stderr).toContain('Verification successful');
    // openssl writes the certificate of every signer it verified: both organizations', no other.
    const signers = fs.readFileSync(signersFile, 'utf8').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g)!;
    expect(signers.map(fingerprintOf).sort()).toEqual(slugs.map((slug) => fingerprintOf(certificateOf(slug))).sort());
    // With both organizations' certificates as the only trust anchors, every signer's chain checks too.
    const anchors = path.join(folder, 'both.pem');
    fs.writeFileSync(anchors, slugs.map(certificateOf).join(''));
    const anchored = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `${file}.p7s`, '-content', file, '-CAfile', anchors, '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
    expect(anchored.status, anchored.stderr).toBe(0);
    fs.writeFileSync(anchors, certificateOf('acme'));
    const oneAnchor = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `${file}.p7s`, '-content', file, '-CAfile', anchors, '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
    expect(oneAnchor.status, "globex's signer is not acme's: trusting acme alone does not vouch for it").not.toBe(0);

    const edited = writeReport('both-edited.html', Buffer.from(html.toString().replace(/\d+ open finding/, '0 open finding')), signature);
    expect(opensslVerify(edited).status).not.toBe(0);
  });

  it('verify prints every signer with its organization and time, with or without --cert', async () => {
    const file = writeReport('both-cli.html', html, signature);
    const verified = await runCli(['verify', file]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^Signature: valid, both-cli\.html\.p7s over both-cli\.html, by 2 signers/);
    const signerLines = verified.stdout.split('\n').filter((line) => line.startsWith('Signer: '));
    expect(signerLines).toEqual([expect.stringMatching(/O=Test acme.*\(organization acme\)$/), expect.stringMatching(/O=Test globex.*\(organization globex\)$/)]);
    const signedAt = new Date(Math.floor(Date.parse(report.created_at) / 1000) * 1000).toISOString();
    expect(verified.stdout.split('\n').filter((line) => line === `Signed at: ${signedAt}`)).toHaveLength(2);
    for (const slug of slugs) expect(verified.stdout).toContain(`Fingerprint (SHA-256): ${fingerprintOf(certificateOf(slug))}`);
    expect(report.signer).toBe(signerLines.map((line) => line.slice('Signer: '.length).replace(/ \(organization \w+\)$/, '')).join('; '));

    const certificate = path.join(folder, 'globex-cli.pem');
    fs.writeFileSync(certificate, certificateOf('globex'));
    const withCert = await runCli(['verify', file, '--cert', certificate]);
    expect(withCert.status, withCert.stderr).toBe(0);
    expect(withCert.stdout).toContain('the given certificate among the signers');

    const edited = writeReport('both-cli-edited.html', Buffer.from(html.toString().replace('Test globex', 'Test glob3x')), signature);
    const refused = await runCli(['verify', edited]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('changed after signing');
  }, 120_000);

  it("refuses a copy whose signature lacks one organization's signer, or is another identity's", async () => {
    // The same signature without globex's SignerInfo and certificate: acme's still verifies, the report names both.
    const contentInfo = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(signature).buffer).result });
    const signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const globex = fingerprintOf(certificateOf('globex'));
    const globexCertificate = signedData.certificates!.find((certificate) => fingerprintOf(pemOf(certificate as pkijs.Certificate)) === globex) as pkijs.Certificate;
    signedData.signerInfos = signedData.signerInfos.filter((signerInfo) => !(signerInfo.sid as pkijs.IssuerAndSerialNumber).serialNumber.isEqual(globexCertificate.serialNumber));
    signedData.certificates = signedData.certificates!.filter((certificate) => certificate !== globexCertificate);
    expect(signedData.signerInfos).toHaveLength(1);
    const lacking = Buffer.from(new pkijs.ContentInfo({ contentType: contentInfo.contentType, content: signedData.toSchema(true) }).toSchema().toBER(false));
    const lackingFile = writeReport('lacking.html', html, lacking);
    expect(opensslVerify(lackingFile).status, 'openssl checks the signers there are').toBe(0);
    const refused = await runCli(['verify', lackingFile]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('not signed by the identity of globex, which the report names as its signer');

    // The report signed by an identity of nobody's.
    const key = path.join(folder, 'other.key');
    const certificate = path.join(folder, 'other.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certificate, '-days', '30', '-subj', '/CN=Someone else/O=Test acme'], { stdio: 'pipe' });
    const otherFile = path.join(folder, 'other.html');
    fs.writeFileSync(otherFile, html);
    execFileSync('openssl', ['cms', '-sign', '-binary', '-in', otherFile, '-signer', certificate, '-inkey', key, '-outform', 'DER', '-out', `${otherFile}.p7s`], { stdio: 'pipe' });
    expect(opensslVerify(otherFile).status, "openssl checks integrity, not whose").toBe(0);
    const other = await runCli(['verify', otherFile]);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toContain("which is not the identity of any of the report's organizations");
  }, 120_000);

  it('is listed under each organization it covers, and read from any of them; a report of one organization only under it', async () => {
    const alone = await server.app('/orgs/globex/reports', { method: 'POST', body: { filter, template: 'executive' } });
    expect(alone.status, JSON.stringify(alone.body)).toBe(201);
    const aloneId = (alone.body as ReportSummary).id;
    const listed = async (slug: string) => {
      const list = await server.app(`/orgs/${slug}/reports`);
      expect(list.status).toBe(200);
      return (list.body as { data: ReportSummary[] }).data.map((summary) => summary.id);
    };
    expect(await listed('acme')).toContain(report.id);
    expect(await listed('acme')).not.toContain(aloneId);
    // Newest first, the report of both among globex's own.
    const ofGlobex = await listed('globex');
    expect(ofGlobex.indexOf(aloneId)).toBeLessThan(ofGlobex.indexOf(report.id));
    expect(ofGlobex.indexOf(report.id)).toBeGreaterThanOrEqual(0);
    for (const format of ['html', 'p7s', 'json']) {
      const fromGlobex = await fetch(`${server.url}/app/orgs/globex/reports/${report.id}?format=${format}`, { headers: { 'x-console-token': server.consoleToken } });
      expect(fromGlobex.status, format).toBe(200);
      expect(Buffer.from(await fromGlobex.arrayBuffer()).equals(await read(report.id, format)), format).toBe(true);
    }
    const notAcmes = await fetch(`${server.url}/app/orgs/acme/reports/${aloneId}`, { headers: { 'x-console-token': server.consoleToken } });
    expect(notAcmes.status).toBe(404);
  }, 120_000);

  it('is refused when the organizations are not the path\'s first, or one is unknown or named twice', async () => {
    for (const organizations of [['globex', 'acme'], ['acme', 'initech'], ['acme', 'acme'], []]) {
      const refused = await server.app('/orgs/acme/reports', { method: 'POST', body: { filter, organizations } });
      expect(refused.status, JSON.stringify(organizations)).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(/organizations/);
    }
  });
});

describe("the appendix of a technical report of two organizations", () => {
  let report: ReportSummary;
  let figures: ReportFigures;

  beforeAll(async () => {
    report = await makeReport('technical');
    figures = JSON.parse((await read(report.id, 'json')).toString()) as ReportFigures;
  }, 120_000);

  it("names each row's organization, whose /v1 has exactly that organization's findings of the filter", async () => {
    const json = JSON.parse((await read(report.id, 'appendix-json')).toString()) as Record<string, unknown>[];
    const csvLines = (await read(report.id, 'appendix-csv')).toString().trimEnd().split('\r\n');
    const header = csvLines[0]!.split(',');
    expect(header[0]).toBe('organization');
    expect(header[1]).toBe('id');
    expect(csvLines).toHaveLength(json.length + 1);
    expect(figures.appendix!.csv.rows).toBe(json.length);
    // The organization first in each JSON item, and the same row for row in the CSV.
    expect(json.every((item) => Object.keys(item)[0] === 'organization')).toBe(true);
    expect(csvLines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(json.map((item) => `${item.organization},${item.id}`));

    for (const slug of slugs) {
      const v1 = (await server.v1All(slug, 'vulnerability-findings')).filter((finding) => finding.severity === 'critical');
      expect(v1.length).toBeGreaterThan(0);
      const rows = json.filter((item) => item.organization === slug);
      expect(new Set(rows.map((item) => item.id))).toEqual(new Set(v1.map((finding) => finding.id)));
      expect(rows).toHaveLength(v1.length);
      // Each row is that organization's finding as /v1 has it.
      const byId = new Map(v1.map((finding) => [finding.id as string, finding]));
      for (const row of rows) expect(row.cve_id).toBe(byId.get(row.id as string)!.cve_id);
    }
    expect(json.filter((item) => !slugs.includes(item.organization as (typeof slugs)[number]))).toEqual([]);
    const html = (await read(report.id, 'html')).toString();
    expect(html).toContain("each row's organization (its slug) first");
  }, 120_000);
});

/** A pkijs certificate as PEM, for openssl. */
function pemOf(certificate: pkijs.Certificate): string {
  const base64 = Buffer.from(certificate.toSchema().toBER(false)).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
