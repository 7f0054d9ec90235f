/**
 * Exploit intelligence through the product's /app (issue 36, item 1): the shared CISA KEV
 * snapshot, a generated EPSS file (gzip) and an ENISA EU KEV sample imported and recorded with
 * their dates, versions, rows and SHA-256; an older EPSS file kept as history; every bad file a
 * 400 naming the line or field with the data directory's files unchanged; the intelligence kept
 * across a replica's full sync and never served by /v1.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threatIntelImportAnswerSchema, threatIntelImportListSchema } from '../../contracts/console/threat-intel.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { keyFileSealer } from '../secrets/key-file-sealer.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { epssCsv, generatedEpssRows, sharedKevDir } from './support/epss-files.js';
import { type FakeRemote, startFakeRemote } from './support/fake-remote.js';
import { sampleInventory } from './support/sample-inventory.js';
import { storeDigest } from './support/store-digest.js';
import { fastPolicy } from './support/sync-fixtures.js';

let server: ConsoleTestServer;
let remote: FakeRemote;
let dataDir: string;
const inventory = sampleInventory();
const inventoryCves = [...new Set(inventory.findings.map((finding) => finding.cve_id))];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-threat-intel-'));
  remote = await startFakeRemote({ inventory });
  server = await startConsoleTestServer([], { sealer: keyFileSealer(path.join(dataDir, 'sealing.key')), syncPolicy: fastPolicy, dataDir });
  expect((await server.app('/organizations', { method: 'POST', body: { slug: 'replica', remoteUrl: remote.url, apiKey: remote.apiKey } })).status).toBe(201);
  await server.syncEnded('replica');
});
afterAll(async () => {
  await server.close();
  await remote.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Posts a file's bytes as the body of importThreatIntel, with `contentType`. */
async function importFile(bytes: Uint8Array | string, contentType = 'application/octet-stream') {
  const response = await fetch(`${server.url}/app/intel/imports`, {
    method: 'POST',
    headers: { [consoleTokenHeader]: server.consoleToken, 'content-type': contentType },
    body: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const sha256 = (bytes: Uint8Array | string) => crypto.createHash('sha256').update(bytes).digest('hex');
const kevBytes = fs.readFileSync(path.join(sharedKevDir, 'known_exploited_vulnerabilities.json'));
const kevCatalog = JSON.parse(kevBytes.toString('utf8')) as { vulnerabilities: { cveID: string; dateAdded: string; dueDate: string; knownRansomwareCampaignUse: string; requiredAction: string }[] };

/** A generated EPSS file of 5,000 rows, the inventory's CVEs first, gzipped as FIRST ships it. */
const epssFile = (date: string, seed: number) => zlib.gzipSync(epssCsv('v2026.06.15', `${date}T12:00:22Z`, generatedEpssRows(inventoryCves, 5_000, seed)));

const euSample = JSON.stringify([
  {
    cveID: 'CVE-2025-48384',
    euvdID: 'EUVD-2025-19821',
    vendorProject: 'Git',
    product: 'Git',
    vulnerabilityName: 'Git link following',
    dateReported: '2026/08/17',
    patchedSince: '2025/07/08',
    originSource: 'CISA',
    shortDescription: 'Git mishandles carriage returns in configuration files.',
    exploitationType: ['Exploited in the wild'],
    threatActorsExploiting: '',
    cwes: ['CWE-59'],
    notes: '',
  },
  {
    euvdID: 'EUVD-2026-40001',
    vendorProject: 'Example',
    product: 'Gateway',
    vulnerabilityName: 'An entry without a CVE id',
    dateReported: '2026/08/19',
    exploitationType: [],
    cwes: [],
  },
]);

describe('importThreatIntel and listThreatIntelImports', () => {
  it("imports the shared CISA KEV snapshot, recognised by its content, with its date, version, rows and SHA-256; the entries whose due date precedes their date added stay as written", async () => {
    const { status, body } = await importFile(kevBytes, 'text/plain');
    expect(status).toBe(201);
    expect(threatIntelImportAnswerSchema.strict().parse(body)).toEqual(body);
    expect(body).toMatchObject({ kind: 'cisa-kev', source_date: '2025-08-25T17:04:19.979Z', version: '2025.08.25', rows: 1404, sha256: sha256(kevBytes), current: true, finished: true, already_imported: false });
    const early = kevCatalog.vulnerabilities.filter((entry) => entry.dueDate < entry.dateAdded);
    expect(early).toHaveLength(15);
    for (const entry of [...early, kevCatalog.vulnerabilities[0]!]) {
      expect(server.store.intel.kev.listings(entry.cveID)).toEqual([
        { source: 'cisa', dateAdded: entry.dateAdded, dueDate: entry.dueDate, ransomware: entry.knownRansomwareCampaignUse === 'Known', requiredAction: entry.requiredAction },
      ]);
    }
    expect(server.store.intel.kev.count('cisa')).toBe(1404);
  });

  it('imports a generated EPSS file, gzip, with its model and score date; the figures of every row are stored, 5e-05 read as written', async () => {
    const file = epssFile('2026-09-29', 1);
    const { status, body } = await importFile(file);
    expect(status).toBe(201);
    expect(body).toMatchObject({ kind: 'epss', source_date: '2026-09-29T12:00:22.000Z', version: 'v2026.06.15', rows: 5_000, sha256: sha256(file), current: true });
    const rows = generatedEpssRows(inventoryCves, 5_000, 1);
    const figures = server.store.intel.epss.current(rows.map(([cve]) => cve));
    expect(figures.size).toBe(5_000);
    for (const [cve, epss, percentile] of rows) expect(figures.get(cve)).toEqual({ epss: Number(epss), percentile: Number(percentile) });
    expect(rows.some(([, epss]) => epss === '5e-05')).toBe(true);
    // History is kept for the CVEs some organization names only.
    expect(server.store.intel.epss.history(inventoryCves[0]!)).toEqual([{ importId: body.id, epss: Number(rows[0]![1]), percentile: Number(rows[0]![2]) }]);
    expect(server.store.intel.epss.history(rows[4_999]![0])).toEqual([]);
  });

  it('keeps an older EPSS file as history: the current figures stay those of the newer file', async () => {
    const current = server.store.intel.epss.current(inventoryCves);
    const { status, body } = await importFile(epssFile('2026-09-20', 2));
    expect(status).toBe(201);
    expect(body).toMatchObject({ kind: 'epss', source_date: '2026-09-20T12:00:22.000Z', current: false, finished: true });
    expect(server.store.intel.epss.current(inventoryCves)).toEqual(current);
    const older = generatedEpssRows(inventoryCves, inventoryCves.length, 2);
    expect(server.store.intel.epss.history(inventoryCves[0]!).map((point) => point.epss)).toEqual([current.get(inventoryCves[0]!)!.epss, Number(older[0]![1])]);
    const listed = (await server.app('/intel/imports')).body;
    expect(threatIntelImportListSchema.strict().parse(listed)).toEqual(listed);
    expect(listed.data.filter((record: { kind: string; current: boolean }) => record.kind === 'epss' && record.current)).toHaveLength(1);
  });

  it('a newer EPSS file replaces the current figures, and the CVEs it no longer scores are no longer scored', async () => {
    const rows = generatedEpssRows(inventoryCves, 4_000, 3);
    const { body } = await importFile(epssCsv('v2026.06.15', '2026-09-30T12:00:00Z', rows));
    expect(body).toMatchObject({ kind: 'epss', current: true, rows: 4_000 });
    expect(server.store.intel.epss.currentCount()).toBe(4_000);
    expect(server.store.intel.epss.current([rows[10]![0]]).get(rows[10]![0])).toEqual({ epss: Number(rows[10]![1]), percentile: Number(rows[10]![2]) });
    expect(server.store.intel.epss.current([generatedEpssRows(inventoryCves, 5_000, 1)[4_500]![0]]).size).toBe(0);
  });

  it("imports an ENISA EU KEV sample, dates written 2026/08/17, an entry without a CVE id; the same file again changes nothing", async () => {
    const first = await importFile(euSample, 'application/json');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ kind: 'eu-kev', source_date: '2026-08-19T00:00:00.000Z', version: null, rows: 2, sha256: sha256(euSample), current: true });
    expect(server.store.intel.kev.listings('CVE-2025-48384').map((listing) => [listing.source, listing.dateAdded])).toEqual([
      ['cisa', '2025-08-25'],
      ['eu', '2026-08-17'],
    ]);
    const before = await storeDigest(dataDir);
    const again = await importFile(euSample);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, already_imported: true });
    expect(await storeDigest(dataDir)).toBe(before);
  });

  it('keeps an older CISA catalog as a record only: the current entries stay those of the newer one', async () => {
    const older = { ...JSON.parse(kevBytes.toString('utf8')), catalogVersion: '2025.08.01', dateReleased: '2025-08-01T17:00:00.000Z' };
    older.vulnerabilities = older.vulnerabilities.slice(10);
    older.count = older.vulnerabilities.length;
    const { status, body } = await importFile(JSON.stringify(older));
    expect(status).toBe(201);
    expect(body).toMatchObject({ kind: 'cisa-kev', version: '2025.08.01', rows: 1394, current: false, finished: true });
    expect(server.store.intel.kev.count('cisa')).toBe(1404);
    expect(server.store.intel.kev.listings(kevCatalog.vulnerabilities[5]!.cveID).map((listing) => listing.source)).toEqual(['cisa']);
    const current = (await server.app('/intel/imports')).body.data.filter((record: { kind: string; current: boolean }) => record.kind === 'cisa-kev' && record.current);
    expect(current.map((record: { version: string }) => record.version)).toEqual(['2025.08.25']);
  });

  const csv = (...lines: string[]) => `${lines.join('\n')}\n`;
  const header = '#model_version:v2026.06.15,score_date:2026-10-01T12:00:00Z';
  const cisa = JSON.parse(kevBytes.toString('utf8')) as Record<string, unknown> & { vulnerabilities: Record<string, unknown>[] };
  const badFiles: [what: string, file: Uint8Array | string, message: RegExp][] = [
    ['an empty file', '', /empty/],
    ['a truncated gzip', epssFile('2026-10-01', 4).subarray(0, 2_000), /could not be unzipped: it is truncated or damaged/],
    ['an EPSS row with a score past 1', csv(header, 'cve,epss,percentile', 'CVE-2024-1000,0.5,0.5', 'CVE-2024-1001,1.5,0.5'), /Line 4 of the EPSS file: epss "1.5" is not a number from 0 to 1/],
    ['an EPSS row cut short', csv(header, 'cve,epss,percentile', 'CVE-2024-1000,0.5'), /Line 3 of the EPSS file is not a row/],
    ['an EPSS file cut in its last row', `${header}\ncve,epss,percentile\nCVE-2024-1000,0.5,0.5\nCVE-2024-1001,0.01,0.5`, /ends in the middle of line 4/],
    ['a CVE scored twice', csv(header, 'cve,epss,percentile', 'CVE-2024-1000,0.5,0.5', 'CVE-2024-1000,0.1,0.2'), /Line 4 .*scored twice \(line 3 too\)/],
    ['an EPSS file without its comment line', csv('cve,epss,percentile', 'CVE-2024-1000,0.5,0.5'), /Line 1 .*not the comment line/],
    ['an EPSS comment line without a date', csv('#model_version:v1,score_date:yesterday', 'cve,epss,percentile'), /score_date is missing or not a date/],
    ['a CISA catalog whose count disagrees', JSON.stringify({ ...cisa, count: 1405 }), /count says 1405 entries and vulnerabilities holds 1404/],
    [
      'a CISA entry with a bad due date',
      JSON.stringify({ ...cisa, vulnerabilities: cisa.vulnerabilities.map((entry, index) => (index === 12 ? { ...entry, dueDate: '2025-13-01' } : entry)) }),
      /vulnerabilities\[12\]\.dueDate: "2025-13-01" is not a date/,
    ],
    [
      'a CISA entry past a field bound',
      JSON.stringify({ ...cisa, vulnerabilities: cisa.vulnerabilities.map((entry, index) => (index === 3 ? { ...entry, product: 'x'.repeat(300) } : entry)) }),
      /vulnerabilities\[3\]\.product: /,
    ],
    ['an EU entry without its EUVD id', JSON.stringify([{ cveID: 'CVE-2025-1', vendorProject: 'A', dateReported: '2026/08/17' }]), /no KEV catalog/],
    ['an EU entry with a bad date', JSON.stringify([{ euvdID: 'EUVD-2026-1', dateReported: '2026/02/30' }]), /\[0\]\.dateReported: "2026\/02\/30" is not a date/],
    ['truncated JSON', kevBytes.subarray(0, 5_000), /not JSON/],
    ['JSON of another kind', JSON.stringify({ hello: 'world' }), /no KEV catalog/],
    ['a file of no known kind', 'MZ\u0090\u0000 not a catalog', /of no kind an import knows/],
    ['a damaged zip archive', 'PK\u0003\u0004 not a catalog', /zip archive could not be read/],
    ['bytes that are not UTF-8', new Uint8Array([0x23, 0xff, 0xfe, 0x00]), /not UTF-8/],
  ];

  it('refuses a malformed, truncated or unknown file with a 400 naming the line or field, and nothing changes', async () => {
    const before = await storeDigest(dataDir);
    const imports = (await server.app('/intel/imports')).body;
    for (const [what, file, message] of badFiles) {
      const { status, body } = await importFile(file);
      expect({ what, status }).toEqual({ what, status: 400 });
      expect(body.error, what).toMatch(message);
    }
    expect(await storeDigest(dataDir)).toBe(before);
    expect((await server.app('/intel/imports')).body).toEqual(imports);
  });

  it('keeps the intelligence across a full sync of a replica, and /v1 never serves it', async () => {
    const imports = (await server.app('/intel/imports')).body;
    const figures = server.store.intel.epss.current(inventoryCves);
    expect((await server.app('/orgs/replica/sync?full=true', { method: 'POST' })).status).toBe(202);
    expect((await server.syncEnded('replica')).state).toMatchObject({ lastSuccessMode: 'full', lastError: null });
    expect((await server.app('/intel/imports')).body).toEqual(imports);
    expect(server.store.intel.epss.current(inventoryCves)).toEqual(figures);
    expect(server.store.intel.epss.history(inventoryCves[0]!)).toHaveLength(3);
    expect(server.store.intel.kev.count('cisa')).toBe(1404);
    const { key } = (await server.app('/orgs/replica/api-keys', { method: 'POST', body: { label: 'v1 reader' } })).body;
    const v1 = (await (await fetch(`${server.url}/v1/vulnerability-findings?limit=100`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Record<string, unknown>[] };
    expect(v1.data.length).toBeGreaterThan(0);
    expect(v1.data.every((finding) => !Object.keys(finding).some((field) => /epss|kev_/.test(field)))).toBe(true);
  });

  it('lists both operations in the /app OpenAPI document', async () => {
    const document = (await server.app('/openapi.json')).body;
    expect(document.paths['/app/intel/imports'].get.operationId).toBe('listThreatIntelImports');
    expect(document.paths['/app/intel/imports'].post.operationId).toBe('importThreatIntel');
    expect(Object.keys(document.components.schemas.ThreatIntelImport.properties)).toEqual(expect.arrayContaining(['kind', 'source_date', 'version', 'rows', 'sha256']));
  });
});
