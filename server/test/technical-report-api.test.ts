/**
 * The technical report (issue 40) through the app the product builds, on a seeded demo
 * organization: its plan steps and their endpoints against the plan's own answer, its scopes'
 * coverage against the coverage route, its appendix (CSV and JSON) against the findings list
 * and its CSV export with the same filter, every id in order, and the hashes its signed HTML
 * states against the files served.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFigures, ReportSummary } from '../../contracts/console/reports.js';
import { generateInventory } from '../demo/generate.js';
import { dataDirectoryFiles } from '../store/engine/data-directory.js';
import { type ConsoleTestServer, startConsoleTestServer } from './support/console-test-server.js';

let server: ConsoleTestServer;
const nowMs = Date.UTC(2026, 6, 1, 9, 30);
const filter = 'severity=high';

beforeAll(async () => {
  // One instant for the report and the lists it is checked against: ages and overdue flags agree.
  server = await startConsoleTestServer([{ slug: 'acme', inventory: generateInventory('demo', 7) }], { clock: () => nowMs });
}, 120_000);
afterAll(async () => {
  await server.close();
});

/** A report file as the API serves it. */
async function read(id: string, format: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${server.url}/app/orgs/acme/reports/${id}?format=${format}`, { headers: { 'x-console-token': server.consoleToken } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the technical report', () => {
  let report: ReportSummary;
  let figures: ReportFigures;

  beforeAll(async () => {
    const made = await server.app('/orgs/acme/reports', { method: 'POST', body: { filter, template: 'technical' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    report = made.body as ReportSummary;
    figures = JSON.parse((await read(report.id, 'json')).bytes.toString()) as ReportFigures;
  }, 120_000);

  it('is listed with its template', async () => {
    expect(report.template).toBe('technical');
    const listed = (await server.app('/orgs/acme/reports')).body.data as ReportSummary[];
    expect(listed.find((summary) => summary.id === report.id)?.template).toBe('technical');
  });

  it("lists every plan step of the plan's own answer, with the endpoints whose findings it closes", async () => {
    const plan = (await server.app('/orgs/acme/remediation-plan')).body as { steps: { rank: number; vendor: string | null; product: string | null; closes: number; endpoints: number }[] };
    const steps = figures.sections[0]!.technical!.plan_steps;
    expect(plan.steps.length).toBeGreaterThan(0);
    expect(steps.map(({ rank, vendor, product, closes }) => ({ rank, vendor, product, closes }))).toEqual(
      plan.steps.map(({ rank, vendor, product, closes }) => ({ rank, vendor, product, closes })),
    );
    plan.steps.forEach((step, index) => {
      const endpoints = steps[index]!.endpoints;
      // The plan's step counts its endpoints and the findings it closes: the report lists each of them, with their share
      // (and, apart, the findings that name no endpoint, which the plan closes but touches no endpoint for).
      expect(endpoints.filter((endpoint) => endpoint.endpoint_id !== null)).toHaveLength(step.endpoints);
      expect(endpoints.reduce((sum, endpoint) => sum + endpoint.closes, 0)).toBe(step.closes);
      expect(new Set(endpoints.map((endpoint) => endpoint.endpoint_id)).size).toBe(endpoints.length);
    });
    const html = (await read(report.id, 'html')).bytes.toString();
    const first = steps[0]!;
    expect(html).toContain('Plan steps and their endpoints');
    expect(html).toContain(`${first.rank}. Update`);
    if (first.endpoints[0]?.hostname) expect(html).toContain(first.endpoints[0].hostname);
  });

  it("shows each scope's coverage as the coverage route counts it", async () => {
    const scopes = await server.appAll('/orgs/acme/scopes');
    const shown = figures.sections[0]!.technical!.scopes;
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.map((scope) => scope.id).sort()).toEqual(scopes.map((scope: { id: string }) => scope.id).sort());
    for (const scope of shown) {
      const coverage = await server.app(`/orgs/acme/scopes/${scope.id}/coverage?limit=1`);
      expect(scope.counts).toEqual(coverage.body.counts);
    }
    expect(figures.sections[0]!.technical!.coverage_gaps).toEqual((await server.app('/orgs/acme/coverage-gaps?limit=1')).body.counts);
  });

  it('has an appendix of every finding of the filter, as the findings list and its CSV export give them, whose hashes the signed HTML states', async () => {
    const listed = await server.appAll(`/orgs/acme/vulnerability-findings?${filter}`);
    expect(listed.length).toBeGreaterThan(0);
    const json = await read(report.id, 'appendix-json');
    expect(json.status).toBe(200);
    expect(JSON.parse(json.bytes.toString())).toEqual(listed);
    const csv = await read(report.id, 'appendix-csv');
    expect(csv.status).toBe(200);
    const exported = await fetch(`${server.url}/app/orgs/acme/export/vulnerability-findings.csv?${filter}`, { headers: { 'x-console-token': server.consoleToken } });
    expect(csv.bytes.toString()).toBe(await exported.text());

    expect(figures.appendix!.csv).toEqual({ name: `report-${report.id}.html.findings.csv`, rows: listed.length, sha256: sha256(csv.bytes) });
    expect(figures.appendix!.json).toEqual({ name: `report-${report.id}.html.findings.json`, rows: listed.length, sha256: sha256(json.bytes) });
    const html = (await read(report.id, 'html')).bytes.toString();
    expect(html).toContain(`data-rows="${listed.length}" data-sha256="${sha256(csv.bytes)}"`);
    expect(html).toContain(`data-rows="${listed.length}" data-sha256="${sha256(json.bytes)}"`);
  });

  it('an executive report has no appendix', async () => {
    const made = await server.app('/orgs/acme/reports', { method: 'POST', body: { filter, template: 'executive' } });
    expect(made.status).toBe(201);
    expect((await read(made.body.id, 'appendix-csv')).status).toBe(404);
    expect(JSON.parse((await read(made.body.id, 'json')).bytes.toString()).sections[0].technical).toBeUndefined();
  });
});

describe('a report whose data is written while it is made', () => {
  it('is refused (409) when the write lands between its figures and its appendix, and nothing of it is kept', async () => {
    const { coverage } = server.store;
    const gaps = coverage.gaps.bind(coverage);
    // The technical parts' last read, after every figure and before the appendix: a real write through the app lands there, once.
    coverage.gaps = async (...args: Parameters<typeof gaps>) => {
      coverage.gaps = gaps;
      const tagged = await server.app('/orgs/acme/endpoint-context/bulk', { method: 'POST', body: { filter: '', add_tags: ['tagged-meanwhile'] } });
      expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
      return gaps(...args);
    };
    const appendices = dataDirectoryFiles(server.sessionDataDir).reportAppendices;
    const filesBefore = fs.readdirSync(appendices).sort();
    const reportsBefore = (await server.app('/orgs/acme/reports')).body.data as ReportSummary[];

    const made = await server.app('/orgs/acme/reports', { method: 'POST', body: { filter, template: 'technical' } });
    expect(made.status, JSON.stringify(made.body)).toBe(409);
    expect(JSON.stringify(made.body)).toContain('make the report again');
    expect(coverage.gaps).toBe(gaps);
    expect((await server.app('/orgs/acme/reports')).body.data).toEqual(reportsBefore);
    expect(fs.readdirSync(appendices).sort()).toEqual(filesBefore);

    const again = await server.app('/orgs/acme/reports', { method: 'POST', body: { filter, template: 'technical' } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  }, 120_000);
});
