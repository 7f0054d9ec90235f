import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ReportFigures, ReportSummary } from '../contracts/console/reports.js';
import { addSession, expect, server, test } from './support/console-page.js';

/** Calls /app with the script token global-setup.ts made. */
async function app(pathname: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/app${pathname}`, { ...init, headers: { 'x-console-script-token': server.scriptToken, 'content-type': 'application/json', ...init.headers } });
}

test("a report prints to a PDF with its running header, page numbers and figures, and loads nothing", async ({ page }) => {
  const made = await app('/orgs/second/reports', { method: 'POST', body: JSON.stringify({ filter: 'severity=critical' }) });
  expect(made.status).toBe(201);
  const report = (await made.json()) as ReportSummary;
  const figures = (await (await app(`/orgs/second/reports/${report.id}?format=json`)).json()) as ReportFigures;
  const [section] = figures.sections;

  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await addSession(page, server.baseUrl, server.session);
  const reportUrl = `${server.baseUrl}/app/orgs/second/reports/${report.id}`;
  await page.goto(reportUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Executive report: Second');
  await expect(page.getByText(section!.posture)).toBeVisible();
  expect(requests).toEqual([reportUrl]);

  const pdf = path.join('e2e', 'artifacts', `report-${report.id}.pdf`);
  await page.pdf({ path: pdf, preferCSSPageSize: true });
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
  // A page per part: the figures, the plan, the accepted risks, the change since the last report.
  expect(pages).toBeGreaterThanOrEqual(4);
  for (let number = 1; number <= pages; number++) expect(text).toContain(`Page ${number} of ${pages}`);
  // The running header, on every page: the product's name and the report's title.
  expect(text.split('Remediation Console report').length - 1).toBe(pages);
  expect(text.split('Executive report: Second').length - 1).toBe(pages + 1);
  expect(text.replace(/\s+/g, ' ')).toContain(section!.posture);
  expect(text).toMatch(new RegExp(`critical\\s+${section!.counts.open_by_severity.critical}\\b`));
  expect(text).toContain('Where these figures come from');

  // Its first page as an image, kept beside the PDF for a look.
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdf, pdf.replace(/\.pdf$/, '')]);
  const image = fs.readdirSync(path.dirname(pdf)).find((name) => name.startsWith(`report-${report.id}`) && name.endsWith('.png'));
  expect(image).toBeDefined();
  expect(fs.statSync(path.join(path.dirname(pdf), image!)).size).toBeGreaterThan(10_000);
});
