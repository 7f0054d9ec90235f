/**
 * Exploit intelligence's history and what each import changed (issue 36, item 4), through the
 * product's /app: a CVE's EPSS history with its 7- and 30-day change (never across models), the
 * change feed of an organization after a KEV catalog with a new entry and after EPSS files whose
 * scores cross the threshold, and where the remote's is_kev and the catalog disagree. Every
 * expected figure is computed here from the inventory and the files, not read from the store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epssHistorySchema } from '../../contracts/console/threat-intel.js';
import { intelChangeListSchema, intelChangePlacesListed, intelSettingsSchema, kevAgreementSchema } from '../../contracts/console/threat-intel-changes.js';
import { consoleTokenHeader } from '../http/app/require-console-token.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';
import { type EpssRow, epssCsv, generatedEpssRows, sharedKevDir } from './support/epss-files.js';
import { sampleInventory } from './support/sample-inventory.js';

const inventory = sampleInventory();
const inventoryCves = [...new Set(inventory.findings.map((finding) => finding.cve_id))];
const openFindings = inventory.findings.filter((finding) => finding.status === 'open');
let server: ConsoleTestServer;

beforeAll(async () => {
  server = await startConsoleTestServer([{ slug: 'acme', inventory }]);
});
afterAll(async () => {
  await server.close();
});

async function importFile(body: string) {
  const response = await fetch(`${server.url}/app/intel/imports`, { method: 'POST', headers: { [consoleTokenHeader]: server.consoleToken }, body });
  return { status: response.status, body: (await response.json()) as any };
}

type CisaCatalog = { catalogVersion: string; dateReleased: string; count: number; vulnerabilities: { cveID: string; dateAdded: string }[] };
const sharedCatalog = JSON.parse(fs.readFileSync(path.join(sharedKevDir, 'known_exploited_vulnerabilities.json'), 'utf8')) as CisaCatalog;

/** The endpoints of the open findings of `cve`, by id, read from the inventory. */
const endpointsOf = (cve: string) => [...new Set(openFindings.filter((finding) => finding.cve_id === cve).map((finding) => finding.endpoint_id))].sort();

/** A listed CVE's endpoints against the inventory: all of them up to the change's bound, the first by hostname past it, and their total. */
function expectEndpoints(listed: { endpoints: { id: string }[]; endpoints_total: number }, cve: string): void {
  const all = endpointsOf(cve);
  expect(listed.endpoints_total).toBe(all.length);
  expect(listed.endpoints).toHaveLength(Math.min(all.length, intelChangePlacesListed));
  for (const endpoint of listed.endpoints) expect(all).toContain(endpoint.id);
  if (all.length <= intelChangePlacesListed) expect(listed.endpoints.map((endpoint) => endpoint.id).sort()).toEqual(all);
}

describe('what a KEV catalog changed, and where is_kev disagrees with it', () => {
  const newCve = 'CVE-2024-1003';

  it('counts both ways where the remote is_kev and CISA disagree', async () => {
    expect((await importFile(JSON.stringify(sharedCatalog))).status).toBe(201);
    const listed = new Set(sharedCatalog.vulnerabilities.map((entry) => entry.cveID));
    const { body } = await server.app('/orgs/acme/intel/kev-agreement');
    expect(kevAgreementSchema.strict().parse(body)).toEqual(body);
    expect(body).toEqual({
      catalogs: [{ source: 'cisa', version: sharedCatalog.catalogVersion, source_date: new Date(sharedCatalog.dateReleased).toISOString() }],
      flagged_not_listed: openFindings.filter((finding) => finding.is_kev && !listed.has(finding.cve_id)).length,
      listed_not_flagged: openFindings.filter((finding) => !finding.is_kev && listed.has(finding.cve_id)).length,
    });
    expect(body.flagged_not_listed).toBeGreaterThan(0);
    // The findings list's filters keep the findings counted.
    const flagged = await server.appAll('/orgs/acme/vulnerability-findings?kevNotListed=true');
    expect(flagged.map((finding) => finding.id).sort()).toEqual(openFindings.filter((finding) => finding.is_kev && !listed.has(finding.cve_id)).map((finding) => finding.id).sort());
    // The first catalog of a source has nothing to compare with: no change recorded.
    expect((await server.app('/orgs/acme/intel/changes')).body.data).toEqual([]);
  });

  it('records a CVE the organization has, newly listed by the next catalog, with its endpoints and plan steps', async () => {
    expect(sharedCatalog.vulnerabilities.some((entry) => entry.cveID === newCve)).toBe(false);
    const entry = { ...sharedCatalog.vulnerabilities[0]!, cveID: newCve, dateAdded: '2025-08-26' };
    const next = { ...sharedCatalog, catalogVersion: '2025.08.26', dateReleased: '2025-08-26T17:00:00.000Z', count: sharedCatalog.count + 1, vulnerabilities: [...sharedCatalog.vulnerabilities, entry] };
    const imported = await importFile(JSON.stringify(next));
    expect(imported.status).toBe(201);
    const { body } = await server.app('/orgs/acme/intel/changes');
    expect(intelChangeListSchema.strict().parse(body)).toEqual(body);
    expect(body.data).toHaveLength(1);
    const [change] = body.data;
    expect(change).toMatchObject({ import_id: imported.body.id, kind: 'cisa-kev', version: '2025.08.26', newly_kev: { total: 1 }, epss_crossed: { up: 0, down: 0, cves: [] } });
    const [cve] = change.newly_kev.cves;
    expect(cve).toMatchObject({ cve_id: newCve, source: 'cisa', date_added: '2025-08-26' });
    expectEndpoints(cve, newCve);
    const hostnames = new Map(inventory.endpoints.map((endpoint) => [endpoint.id, endpoint.hostname]));
    for (const endpoint of cve.endpoints) expect(endpoint.hostname).toBe(hostnames.get(endpoint.id));
    const targetIds = new Set(openFindings.filter((finding) => finding.cve_id === newCve).map((finding) => finding.remediation_target_id));
    const products = new Set(inventory.remediationTargets.filter((target) => targetIds.has(target.id)).map((target) => JSON.stringify([target.vendor, target.product])));
    expect(cve.plan_steps_total).toBe(products.size);
    for (const step of cve.plan_steps as { vendor: string | null; product: string | null }[]) expect(products).toContain(JSON.stringify([step.vendor, step.product]));
    if (products.size <= intelChangePlacesListed) expect(cve.plan_steps).toHaveLength(products.size);
    // And the disagreement follows: the new entry's open findings not flagged are counted.
    const agreement = (await server.app('/orgs/acme/intel/kev-agreement')).body;
    expect(agreement.listed_not_flagged).toBe(openFindings.filter((finding) => !finding.is_kev && finding.cve_id === newCve).length);
    const notFlagged = await server.appAll('/orgs/acme/vulnerability-findings?kevListedNotFlagged=true');
    expect(notFlagged.map((finding) => finding.id).sort()).toEqual(openFindings.filter((finding) => !finding.is_kev && finding.cve_id === newCve).map((finding) => finding.id).sort());
  });
});

describe("a CVE's EPSS history and what EPSS imports changed", () => {
  const rowsOf = (seed: number): EpssRow[] => generatedEpssRows(inventoryCves, 200, seed);
  const files = [
    { date: '2026-09-01', model: 'v1', seed: 11 },
    { date: '2026-09-24', model: 'v1', seed: 12 },
    { date: '2026-10-01', model: 'v1', seed: 20 },
  ];
  const scoreOf = (seed: number, cve: string) => Number(rowsOf(seed).find(([id]) => id === cve)![1]);
  const cve = inventoryCves[2]!;

  it('refuses a threshold past 1 and keeps the settings saved', async () => {
    expect((await server.app('/intel/settings')).body).toEqual({ epss_threshold: 0.1, epss_rise: 0.05 });
    const refused = await server.app('/intel/settings', { method: 'PUT', body: { epss_threshold: 2, epss_rise: 0.05 } });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ field: 'epss_threshold', message: expect.stringContaining('1') }]);
    const saved = await server.app('/intel/settings', { method: 'PUT', body: { epss_threshold: 0.5, epss_rise: 0.2 } });
    expect(saved.status).toBe(200);
    expect(intelSettingsSchema.parse(saved.body)).toEqual({ epss_threshold: 0.5, epss_rise: 0.2 });
    expect((await server.app('/intel/settings')).body).toEqual({ epss_threshold: 0.5, epss_rise: 0.2 });
  });

  it('answers no file before any EPSS import, and a 400 naming a CVE id that is none', async () => {
    const { body } = await server.app(`/intel/epss/${cve}`);
    expect(body.changes.map((change: { gap: string }) => change.gap)).toEqual(['no-file', 'no-file']);
    const bad = await server.app('/intel/epss/log4shell');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('"cveId"');
  });

  it('computes the 7- and 30-day change from the kept imports, and records the CVEs whose score crossed the threshold', async () => {
    for (const file of files) expect((await importFile(epssCsv(file.model, `${file.date}T12:00:00Z`, rowsOf(file.seed)))).status).toBe(201);
    const { body } = await server.app(`/intel/epss/${cve.toLowerCase()}`);
    expect(epssHistorySchema.strict().parse(body)).toEqual(body);
    expect(body.history.map((point: { epss: number }) => point.epss)).toEqual([...files].reverse().map((file) => scoreOf(file.seed, cve)));
    const expected7 = Math.round((scoreOf(20, cve) - scoreOf(12, cve)) * 100_000) / 100_000;
    const expected30 = Math.round((scoreOf(20, cve) - scoreOf(11, cve)) * 100_000) / 100_000;
    expect(body.changes).toEqual([
      { days: 7, change: expected7, from_date: '2026-09-24T12:00:00.000Z', gap: null },
      { days: 30, change: expected30, from_date: '2026-09-01T12:00:00.000Z', gap: null },
    ]);
    // The findings list's rising filter keeps the findings of the CVEs that rose by at least 0.2 over 7 days (same model).
    const rising = new Set(inventoryCves.filter((id) => Math.round((scoreOf(20, id) - scoreOf(12, id)) * 100_000) / 100_000 >= 0.2));
    expect(rising.size).toBeGreaterThan(0);
    expect(rising.size).toBeLessThan(inventoryCves.length);
    const risingFindings = await server.appAll('/orgs/acme/vulnerability-findings?epssRising=true');
    expect(risingFindings.map((finding) => finding.id).sort()).toEqual(inventory.findings.filter((finding) => rising.has(finding.cve_id)).map((finding) => finding.id).sort());
    // The last import's crossings of 0.5, among the CVEs of the organization's open findings.
    const openCves = new Set(openFindings.map((finding) => finding.cve_id));
    const crossed = [...openCves].filter((id) => scoreOf(12, id) >= 0.5 !== scoreOf(20, id) >= 0.5);
    expect(crossed.length).toBeGreaterThan(0);
    const changes = (await server.app('/orgs/acme/intel/changes')).body.data;
    const latest = changes[0];
    expect(latest).toMatchObject({ kind: 'epss', source_date: '2026-10-01T12:00:00.000Z', epss_threshold: 0.5, model_changed_from: null });
    expect(latest.epss_crossed.cves.map((change: { cve_id: string }) => change.cve_id).sort()).toEqual(crossed.sort());
    expect(latest.epss_crossed.up).toBe(crossed.filter((id) => scoreOf(20, id) >= 0.5).length);
    for (const change of latest.epss_crossed.cves) {
      expect(change).toMatchObject({ epss_before: scoreOf(12, change.cve_id), epss_after: scoreOf(20, change.cve_id) });
      expectEndpoints(change, change.cve_id);
    }
  });

  it('computes no change across model versions, says so, and records the model change', async () => {
    expect((await importFile(epssCsv('v2', '2026-10-02T12:00:00Z', rowsOf(14)))).status).toBe(201);
    const { body } = await server.app(`/intel/epss/${cve}`);
    expect(body.changes).toEqual([
      { days: 7, change: null, from_date: '2026-09-24T12:00:00.000Z', gap: 'model-changed' },
      { days: 30, change: null, from_date: '2026-09-01T12:00:00.000Z', gap: 'model-changed' },
    ]);
    const latest = (await server.app('/orgs/acme/intel/changes')).body.data[0];
    expect(latest).toMatchObject({ kind: 'epss', source_date: '2026-10-02T12:00:00.000Z', model_changed_from: 'v1' });
    expect(await server.appAll('/orgs/acme/vulnerability-findings?epssRising=true')).toEqual([]);
    // A CVE the newest file does not score has no change, and says why.
    const unscored = await importFile(epssCsv('v2', '2026-10-03T12:00:00Z', rowsOf(14).filter(([id]) => id !== cve)));
    expect(unscored.status).toBe(201);
    expect((await server.app(`/intel/epss/${cve}`)).body.changes.map((change: { gap: string }) => change.gap)).toEqual(['not-scored', 'not-scored']);
  });
});
