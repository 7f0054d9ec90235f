import { type APIRequestContext, type Page } from '@playwright/test';
import { columnTexts, expect, figure, listTotal, openConsole, screenshot, server, test } from './support/console-page.js';

/**
 * Tags and criticality in the figures (issue 28), on the second organization (the demo's
 * context is other specs'): set through /app as the console's own calls do, then seen in the
 * console: the findings filtered by a tag, and the endpoints' risk order following criticality.
 */
const headers = () => ({ 'x-console-script-token': server.scriptToken, origin: server.baseUrl });

async function app(request: APIRequestContext, path: string, options: { method?: 'GET' | 'POST' | 'PUT'; data?: unknown } = {}): Promise<any> {
  const response = await request.fetch(`${server.baseUrl}/app/orgs/second/${path}`, { method: options.method ?? 'GET', headers: headers(), data: options.data });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

const grid = (page: Page, name: string) => page.getByRole('grid', { name });

test('findings filtered by a tag: the tag chosen in the filter bar, kept in the URL, the count of its endpoints\' findings', async ({ page, request }) => {
  const tagged = await app(request, 'endpoint-context/bulk', { method: 'POST', data: { filter: 'osFamily=macos', add_tags: ['e2e-design'] } });
  expect(tagged.matched).toBeGreaterThan(0);
  // The tag is on exactly the macOS endpoints: their open findings, as the OS filter counts them.
  const expected = (await app(request, 'vulnerability-findings?osFamily=macos&status=open&limit=1')).total;
  expect(expected).toBeGreaterThan(0);

  await openConsole(page, '/orgs/second/vulnerability-findings');
  const all = await listTotal(page);
  await page.getByLabel('Tag').selectOption('e2e-design');
  await expect(page).toHaveURL(/tag=e2e-design/);
  await expect.poll(() => listTotal(page)).toBe(expected);
  expect(expected).toBeLessThan(all);
  await screenshot(page, 'findings-by-tag');

  // A bookmark of it opens the same list, the tag shown in its control.
  await page.reload();
  await expect(page.getByLabel('Tag')).toHaveValue('e2e-design');
  expect(await listTotal(page)).toBe(expected);
  // With the criticality too: none of them is critical yet.
  await page.getByLabel('Criticality').selectOption('critical');
  await expect(page).toHaveURL(/criticality=critical/);
  await expect(page.getByText('No findings match these filters.')).toBeVisible();
});

test('the endpoints\' risk order follows criticality: an endpoint made critical climbs to the top, its score before criticality said', async ({ page, request }) => {
  type Ranked = { id: string; hostname: string; risk_score: number; risk_score_before_criticality: number; criticality: string };
  const ranked = (await app(request, 'endpoints?sort=-risk_score&limit=30')).data as Ranked[];
  // The first normal endpoint further down whose score, four times over, passes the top one's.
  const top = ranked[0]!;
  const climber = ranked.find((endpoint, index) => index > 0 && endpoint.criticality === 'normal' && endpoint.risk_score * 4 > top.risk_score && endpoint.risk_score < top.risk_score);
  expect(climber, 'an endpoint that criticality lifts above the first').toBeDefined();

  await openConsole(page, '/orgs/second/endpoints');
  const endpoints = grid(page, 'Endpoints');
  expect((await columnTexts(endpoints, 1))[0]?.startsWith(top.hostname)).toBe(true);

  await app(request, `endpoints/${climber!.id}/context`, { method: 'PUT', data: { criticality: 'critical' } });
  await page.reload();
  // The hostname cell says the criticality beside it (the IP address under them).
  await expect.poll(async () => (await columnTexts(endpoints, 1))[0]?.split(/\s+/).slice(0, 2).join(' ').toLowerCase()).toBe(`${climber!.hostname} critical`.toLowerCase());
  await screenshot(page, 'endpoints-risk-by-criticality');

  // Its page gives the score before criticality beside the weighed one.
  await page.goto(`${server.baseUrl}/orgs/second/endpoints/${climber!.id}`);
  await expect(page.getByText(`${climber!.risk_score.toLocaleString('en-US')} before criticality (critical, ×4)`)).toBeVisible();
  const shown = page.getByRole('list', { name: 'Exposure of the endpoint' }).locator('.figure__value').first();
  expect(figure(await shown.innerText())).toBe(climber!.risk_score * 4);

  // Back to normal: the order is the figures' alone again.
  await app(request, `endpoints/${climber!.id}/context`, { method: 'PUT', data: { criticality: 'normal' } });
});
