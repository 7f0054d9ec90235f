/**
 * The `report` and `verify` commands through the built binary: a seeded organization's report
 * of a filter written with its signature, verified and printed with its signer and time, an
 * edited copy refused, a second report compared with the first, and one of two organizations;
 * an organization's removal taking its reports' appendix files, and the orphans a crash would
 * leave swept at the next command's open and at serve's start, as are the findings parts of a
 * report the process died making.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlessSealer } from '../cli/cli-context.js';
import { startConsoleServer } from '../start-console-server.js';
import { Store } from '../store/store.js';
import { runCli } from './support/cli-binary.js';

let folder: string;
let dataDir: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-report-cli-'));
  dataDir = path.join(folder, 'data');
  for (const slug of ['acme', 'globex']) {
    const created = await runCli(['orgs', 'create', '--slug', slug, '--name', `${slug} Inc.`, '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    const seeded = await runCli(['seed', '--org', slug, '--size', 'demo', '--seed', slug === 'acme' ? '3' : '4', '--data-dir', dataDir]);
    expect(seeded.status, seeded.stderr).toBe(0);
  }
}, 300_000);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('report and verify', () => {
  it('writes a signed report that verify accepts, naming who signed it and when; an edited copy is refused', async () => {
    const out = path.join(folder, 'critical.html');
    const made = await runCli(['report', '--org', 'acme', '--filter', 'severity=critical', '--template', 'executive', '--out', out, '--data-dir', dataDir]);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('Signed by');
    const html = fs.readFileSync(out, 'utf8');
    expect(html).toContain('acme Inc.');
    expect(html).toContain('<code>severity=critical</code>');
    expect(html).toContain('This is the first report of this filter');

    const verified = await runCli(['verify', out]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^Signature: valid/);
    expect(verified.stdout).toMatch(/Signer: .*acme/);
    expect(verified.stdout).toMatch(/Signed at: \d{4}-\d\d-\d\dT/);
    const certificate = path.join(folder, 'acme.pem');
    const cert = await runCli(['orgs', 'cert', '--org', 'acme', '--data-dir', dataDir]);
    fs.writeFileSync(certificate, cert.stdout);
    expect((await runCli(['verify', out, '--cert', certificate])).stdout).toContain('signed with the given certificate');
    const openssl = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `${out}.p7s`, '-content', out, '-CAfile', certificate, '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
    expect(openssl.status, openssl.stderr).toBe(0);

    const edited = path.join(folder, 'edited.html');
    fs.writeFileSync(edited, html.replace('acme Inc.', 'acme Ltd.'));
    fs.copyFileSync(`${out}.p7s`, `${edited}.p7s`);
    const refused = await runCli(['verify', edited]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('changed after signing');

    const again = await runCli(['report', '--org', 'acme', '--filter', 'severity=critical', '--out', out, '--data-dir', dataDir]);
    expect(again.status, again.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toContain('Compared with the previous report of the same filter');
  }, 120_000);

  it('writes a technical report with its appendix beside it; verify checks the appendix and refuses an edited one', async () => {
    const out = path.join(folder, 'technical.html');
    const made = await runCli(['report', '--org', 'acme', '--filter', 'severity=high', '--template', 'technical', '--out', out, '--data-dir', dataDir]);
    expect(made.status, made.stderr).toBe(0);
    const csv = `${out}.findings.csv`;
    const json = `${out}.findings.json`;
    expect(made.stdout).toContain(path.resolve(csv));
    expect(made.stdout).toContain(path.resolve(json));
    const items = JSON.parse(fs.readFileSync(json, 'utf8')) as { id: string; severity: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.severity === 'high')).toBe(true);
    const lines = fs.readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    // The header, then a line a finding, in the same order as the JSON.
    expect(lines).toHaveLength(items.length + 1);
    expect(lines.slice(1).map((line) => line.slice(0, 36))).toEqual(items.map((item) => item.id));
    const html = fs.readFileSync(out, 'utf8');
    expect(html).toContain('Technical report: acme Inc.');
    expect(html).toContain(`data-rows="${items.length}"`);

    const verified = await runCli(['verify', out]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`Appendix technical.html.findings.csv (${items.length} findings): valid`);
    expect(verified.stdout).toContain(`Appendix technical.html.findings.json (${items.length} findings): valid`);

    fs.appendFileSync(csv, `${lines[1]}\r\n`);
    const refused = await runCli(['verify', out]);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toContain('technical.html.findings.csv');
    expect(refused.stderr).toContain('technical.html.findings.csv changed since the report was signed');
  }, 120_000);

  it('makes one section per organization, and refuses a filter the findings list would not take', async () => {
    const out = path.join(folder, 'both.html');
    const made = await runCli(['report', '--org', 'acme', 'globex', '--filter', 'isKev=true', '--out', out, '--data-dir', dataDir]);
    expect(made.status, made.stderr).toBe(0);
    const html = fs.readFileSync(out, 'utf8');
    expect(html.match(/<section class="organization">/g)).toHaveLength(2);
    expect(html.indexOf('acme Inc.')).toBeLessThan(html.indexOf('globex Inc.'));
    expect((await runCli(['verify', out])).status).toBe(0);

    const refused = await runCli(['report', '--org', 'acme', '--filter', 'severity=urgent', '--out', path.join(folder, 'no.html'), '--data-dir', dataDir]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('Invalid filter parameter "severity"');
    expect(fs.existsSync(path.join(folder, 'no.html'))).toBe(false);
  }, 120_000);

  it("sweeps the findings parts of a report the process died making, at the next command's open and at serve's start", async () => {
    const out = path.join(folder, 'kept.html');
    const kept = await runCli(['report', '--org', 'acme', '--filter', 'severity=medium', '--out', out, '--data-dir', dataDir]);
    expect(kept.status, kept.stderr).toBe(0);
    const keptId = /^Report ([0-9a-f-]{36}) /m.exec(kept.stdout)![1]!;
    const unkeptId = '00000000-0000-4000-8000-00000000beef';
    /** Each report's number of findings parts of acme, in the store as a reader sees it. */
    const parts = async () => {
      const store = await Store.open({ dataDir, readOnly: true });
      try {
        const acme = store.organizations.bySlug('acme')!.rowId;
        return [keptId, unkeptId].map((id) => [...store.reports.findings(id, acme)].length);
      } finally {
        store.close();
      }
    };
    /** What a process killed after a report's first findings parts and before the report leaves. */
    const dieMidReport = async () => {
      const store = await Store.open({ dataDir, command: 'test' });
      try {
        const acme = store.organizations.bySlug('acme')!.rowId;
        for (const part of [0, 1]) store.reports.insertFindings(unkeptId, acme, part, `k-CVE-${part}`);
      } finally {
        store.close();
      }
    };
    await dieMidReport();
    const [keptParts, unkeptParts] = await parts();
    expect(keptParts).toBeGreaterThan(0);
    expect(unkeptParts).toBe(2);

    const opened = await runCli(['orgs', 'create', '--slug', 'hooli', '--name', 'Hooli', '--data-dir', dataDir]);
    expect(opened.status, opened.stderr).toBe(0);
    expect(await parts()).toEqual([keptParts, 0]);
    // The kept report is whole: its delta reads its parts.
    const again = await runCli(['report', '--org', 'acme', '--filter', 'severity=medium', '--out', path.join(folder, 'kept-again.html'), '--data-dir', dataDir]);
    expect(again.status, again.stderr).toBe(0);
    expect(fs.readFileSync(path.join(folder, 'kept-again.html'), 'utf8')).not.toContain('This is the first report of this filter');

    await dieMidReport();
    const served = await startConsoleServer({ dataDir, port: 0, command: 'test', sealer: headlessSealer });
    await served.stop();
    expect(await parts()).toEqual([keptParts, 0]);
  }, 180_000);

  // Last: it removes globex.
  it("removes an organization's appendix files with it, and sweeps those whose report is gone at the next open", async () => {
    const appendices = path.join(dataDir, 'report-appendices');
    const appendixOf = (made: { stdout: string }) => {
      const id = /^Report ([0-9a-f-]{36}) /m.exec(made.stdout)![1]!;
      return [`report-${id}.html.findings.csv`, `report-${id}.html.findings.json`];
    };
    const globex = await runCli(['report', '--org', 'globex', '--filter', 'severity=high', '--template', 'technical', '--out', path.join(folder, 'globex.html'), '--data-dir', dataDir]);
    expect(globex.status, globex.stderr).toBe(0);
    const acme = await runCli(['report', '--org', 'acme', '--filter', 'severity=low', '--template', 'technical', '--out', path.join(folder, 'acme.html'), '--data-dir', dataDir]);
    expect(acme.status, acme.stderr).toBe(0);
    for (const file of [...appendixOf(globex), ...appendixOf(acme)]) expect(fs.existsSync(path.join(appendices, file)), file).toBe(true);

    const removed = await runCli(['orgs', 'remove', '--slug', 'globex', '--yes', '--data-dir', dataDir]);
    expect(removed.status, removed.stderr).toBe(0);
    const left = () => fs.readdirSync(appendices);
    expect(left().filter((file) => appendixOf(globex).includes(file))).toEqual([]);
    expect(left()).toEqual(expect.arrayContaining(appendixOf(acme)));

    // What a crash between a removal's write and its files' would leave, and a file of somebody else's.
    const orphans = ['report-00000000-0000-4000-8000-000000000000.html.findings.csv', 'report-00000000-0000-4000-8000-000000000000.html.findings.json'];
    for (const file of [...orphans, 'notes.txt']) fs.writeFileSync(path.join(appendices, file), 'left behind');
    const opened = await runCli(['orgs', 'create', '--slug', 'initech', '--name', 'Initech', '--data-dir', dataDir]);
    expect(opened.status, opened.stderr).toBe(0);
    expect(left().filter((file) => orphans.includes(file))).toEqual([]);
    expect(left()).toEqual(expect.arrayContaining([...appendixOf(acme), 'notes.txt']));
    expect((await runCli(['verify', path.join(folder, 'acme.html')])).stdout).toContain('acme.html.findings.csv');

    // serve's start sweeps too.
    for (const file of orphans) fs.writeFileSync(path.join(appendices, file), 'left behind');
    const served = await startConsoleServer({ dataDir, port: 0, command: 'test', sealer: headlessSealer });
    try {
      expect(left().filter((file) => orphans.includes(file))).toEqual([]);
      expect(left()).toEqual(expect.arrayContaining([...appendixOf(acme), 'notes.txt']));
    } finally {
      await served.stop();
    }
  }, 180_000);
});
