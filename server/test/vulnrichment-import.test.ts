/**
 * Vulnrichment records through the product's import door (issue 37, item 1): one record, a JSON
 * list of records, and the repository's folders as .zip and .tar.gz, each recorded with its date,
 * counts and the normalisations it made; every bad input a 400 naming the file and field, with
 * the data directory's files unchanged.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threatIntelImportAnswerSchema } from '../../contracts/console/threat-intel.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { repositoryPath, sharedVulnrichmentFiles } from './support/ssvc-files.js';
import { storeDigest } from './support/store-digest.js';

let server: ConsoleTestServer;
let dataDir: string;
const files = sharedVulnrichmentFiles();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-vulnrichment-'));
  server = await startConsoleTestServer([], { dataDir });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function importFile(bytes: Uint8Array | string) {
  const response = await fetch(`${server.url}/app/intel/imports`, {
    method: 'POST',
    headers: { [consoleTokenHeader]: server.consoleToken, 'content-type': 'application/octet-stream' },
    body: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A record's CISA-ADP SSVC options as written, read here without the product. */
function writtenOptions(bytes: Buffer): { cve: string; options: Record<string, string>; timestamp: string } | undefined {
  const record = JSON.parse(bytes.toString('utf8'));
  for (const adp of record.containers.adp ?? []) {
    if (adp.providerMetadata?.shortName !== 'CISA-ADP') continue;
    for (const metric of adp.metrics ?? []) {
      if (metric.other?.type === 'ssvc') return { cve: record.cveMetadata.cveId, options: Object.assign({}, ...metric.other.content.options), timestamp: metric.other.content.timestamp };
    }
  }
  return undefined;
}

const tableValue = (raw: string) => (raw.toLowerCase() === 'poc' ? 'public poc' : raw.toLowerCase());

describe('importThreatIntel with Vulnrichment records', () => {
  it('imports one record with capitalised values, normalised and each normalisation counted', async () => {
    const file = files.find((entry) => entry.name === 'CVE-2023-38545.json')!;
    const { status, body } = await importFile(file.bytes);
    expect(status).toBe(201);
    expect(threatIntelImportAnswerSchema.strict().parse(body)).toEqual(body);
    expect(body).toMatchObject({ kind: 'vulnrichment', source_date: '2024-10-17T21:11:03.346Z', version: '2.0.3', rows: 1, current: true, finished: true });
    expect(body.report).toEqual({
      files: 1,
      records: 1,
      without_ssvc: 0,
      normalised: [
        { field: 'Automatable', from: 'No', to: 'no', count: 1 },
        { field: 'Exploitation', from: 'PoC', to: 'public poc', count: 1 },
        { field: 'Technical Impact', from: 'Total', to: 'total', count: 1 },
      ],
    });
  });

  it('imports a JSON list of records, and the whole folder as .zip and as .tar.gz, with the values each record holds', async () => {
    const written = files.map((file) => writtenOptions(file.bytes)).filter((entry) => entry !== undefined);
    const list = `[${files.map((file) => file.bytes.toString('utf8')).join(',')}]`;
    const zip = zipSync(Object.fromEntries(files.map((file) => [`vulnrichment-develop/${repositoryPath(file.name)}`, new Uint8Array(file.bytes)])));
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-vulnrichment-tree-'));
    for (const file of files) {
      const target = path.join(folder, repositoryPath(file.name));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.bytes);
    }
    fs.writeFileSync(path.join(folder, 'README.md'), '# not a record\n');
    const tarGz = zlib.gzipSync(execFileSync('tar', ['-c', '-C', folder, '.']));
    fs.rmSync(folder, { recursive: true, force: true });
    // The normalisations a reader makes: every value not written as the table writes it.
    const expected = new Map<string, number>();
    for (const { options } of written) {
      for (const [field, raw] of Object.entries(options)) if (tableValue(raw) !== raw) expected.set(`${field}|${raw}`, (expected.get(`${field}|${raw}`) ?? 0) + 1);
    }
    for (const [what, bytes] of [['list', list], ['zip', zip], ['tar.gz', tarGz]] as const) {
      const { status, body } = await importFile(bytes);
      expect({ what, status }).toEqual({ what, status: 201 });
      expect(body.report.records, what).toBe(written.length);
      expect(body.report.files, what).toBe(files.length);
      expect(new Map(body.report.normalised.map((entry: any) => [`${entry.field}|${entry.from}`, entry.count])), what).toEqual(expected);
      expect(body.source_date, what).toBe(new Date(written.map((entry) => entry.timestamp).sort().at(-1)!.slice(0, 23) + 'Z').toISOString());
    }
    expect(server.store.intel.vulnrichment.count()).toBe(written.length);
    const { cveKey } = await import('../store/intel/cve-key.js');
    const stored = server.store.intel.vulnrichment.of(written.map((entry) => cveKey(entry.cve)!));
    for (const { cve, options } of written) {
      expect(stored.get(cveKey(cve)!), cve).toMatchObject({
        exploitation: tableValue(options.Exploitation!),
        automatable: tableValue(options.Automatable!),
        technicalImpact: tableValue(options['Technical Impact']!),
      });
    }
  });

  it('refuses bad input with a 400 naming the file and field, and nothing changes', async () => {
    const record = JSON.parse(files[0]!.bytes.toString('utf8'));
    const cisa = record.containers.adp.findIndex((adp: any) => adp.providerMetadata.shortName === 'CISA-ADP');
    const ssvc = record.containers.adp[cisa].metrics.findIndex((metric: any) => metric.other?.type === 'ssvc');
    const withOption = (options: unknown) => {
      const copy = structuredClone(record);
      copy.containers.adp[cisa].metrics[ssvc].other.content.options = options;
      return JSON.stringify(copy);
    };
    const badZip = zipSync({ '2024/1xxx/CVE-2024-1086.json': new Uint8Array(files[1]!.bytes), '2024/3xxx/CVE-2024-3094.json': new TextEncoder().encode(withOption([{ Exploitation: 'maybe' }])) });
    const bad: [string, Uint8Array | string, RegExp][] = [
      ['an unknown value', withOption([{ Exploitation: 'maybe' }, { Automatable: 'yes' }, { 'Technical Impact': 'total' }]), /the file is refused: containers\.adp\[\d+\]\.metrics\[\d+\]\.other\.content\.options\[0\]\.Exploitation "maybe" is none of/],
      ['a missing decision point', withOption([{ Exploitation: 'none' }, { Automatable: 'yes' }]), /options names no Technical Impact/],
      ['no CVE id', JSON.stringify({ ...record, cveMetadata: {} }), /cveMetadata\.cveId is not a CVE id/],
      ['a list with a bad second record', `[${files[0]!.bytes},${JSON.stringify({ dataType: 'CVE_RECORD', cveMetadata: { cveId: 'CVE-1' } })}]`, /the file\[1\] is refused: cveMetadata\.cveId/],
      ['the same CVE twice', `[${files[0]!.bytes},${files[0]!.bytes}]`, /is in the file\[0\] too/],
      ['a zip with one bad record', badZip, /2024\/3xxx\/CVE-2024-3094\.json is refused: .*Exploitation "maybe"/],
      ['a zip without records', zipSync({ 'README.md': new TextEncoder().encode('# hi') }), /holds no CVE record/],
      ['a truncated tar.gz', zlib.gzipSync(Buffer.concat([Buffer.alloc(257), Buffer.from('ustar'), Buffer.alloc(250)])), /tar archive is damaged/],
    ];
    const before = await storeDigest(dataDir);
    for (const [what, bytes, message] of bad) {
      const { status, body } = await importFile(bytes);
      expect({ what, status }).toEqual({ what, status: 400 });
      expect(body.error, what).toMatch(message);
    }
    expect(await storeDigest(dataDir)).toBe(before);
  });
});
