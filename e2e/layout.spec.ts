import { type APIRequestContext, type BrowserContext, type Page, test as base } from '@playwright/test';
import { collectionBasics } from '../contracts/collection-basics.js';
import { consoleViews, syncChangesPath } from '../contracts/console/views.js';
import type { SyncStatus } from '../contracts/console/sync.js';
import { type FakeRemote, startFakeRemote } from '../server/test/support/fake-remote.js';
import { sampleInventory } from '../server/test/support/sample-inventory.js';
import { addSession, expect, screenshot, server } from './support/console-page.js';

/*
 * Every view of the console at three window sizes: the frame stays (the document never scrolls,
 * the top bar is one line), nothing scrolls sideways, and the first rows of every table show
 * their cells whole where the column has room for them. One browser context, one page load per
 * view and size.
 */

const viewports = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/** How many rows of each table are checked: those a user reads first. */
const firstRows = 8;

/**
 * What a deliberately cut text (`.cut-text`, whole in its tooltip) must still show: from 1,280
 * pixels on, its first ten characters and the ellipsis ("Windows Se…", "DESKTOP-A8…",
 * "16.0.16130…": enough to tell one from its neighbours), where the table showed five before; at
 * 1,920, the whole text when it is a short one (hostnames, products, versions; not finding
 * titles or descriptions).
 */
const cutTextShows = { prefix: 10, wholeUpTo: 24 };

/**
 * What people need most in a table (issue 34, item 14), whole from 1,280 pixels on, in every
 * table with these columns: a cut text (`.cut-text`) is not exempted, and a text wrapped over two
 * lines must not be clamped. By table, the headers of the columns (a column's header holds each
 * field's: "Product" and "Version" share one).
 */
const wholeFrom1280: Record<string, readonly string[]> = {
  'Vulnerability findings': ['Title', 'Host', 'Product', 'Version'],
  Endpoints: ['Hostname', 'IP address', 'OS'],
};

/** A replica whose last sync failed: the Organizations view shows its error, and its Changes view exists. */
const replicaSlug = 'layout-replica';
const headers = () => ({ 'x-console-script-token': server.scriptToken });
let remote: FakeRemote;
let remoteFails = false;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

interface View {
  name: string;
  path: string;
}
let views: View[] = [];

const test = base;

async function appJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const answer = await request.get(`${server.baseUrl}/app${path}`, { headers: headers() });
  expect(answer.status(), path).toBe(200);
  return (await answer.json()) as T;
}

const syncStatus = async (request: APIRequestContext) => appJson<SyncStatus>(request, `/orgs/${replicaSlug}/sync`);

/**
 * Every view of the router (renderer/src/views/routes.tsx): the sidebar's views, a detail page of
 * each collection, a software product and version (the demo's first, riskiest first), the
 * sessions, a replica's Changes, and a page that does not exist.
 */
async function allViews(request: APIRequestContext): Promise<View[]> {
  const first = async (path: string) => (await appJson<{ data: { id: string }[] }>(request, path)).data[0]!.id;
  const details = {
    endpoints: await first('/orgs/demo/endpoints?limit=1&sort=-risk_score'),
    remediationTargets: await first('/orgs/demo/remediation-targets?limit=1'),
    scopes: await first('/orgs/demo/scopes?limit=1'),
    findings: await first('/orgs/demo/vulnerability-findings?limit=1&status=open&sort=-risk'),
  };
  const product = await first('/orgs/demo/software?limit=1&sort=-risk_score');
  const version = (await appJson<{ versions: { id: string }[] }>(request, `/orgs/demo/software/${encodeURIComponent(product)}`)).versions[0]!.id;
  return [
    ...consoleViews.map(({ label, section }) => ({ name: label, path: section ? `/orgs/demo/${section}` : '/orgs/demo' })),
    ...Object.entries(details).map(([collection, id]) => {
      const { path, labels } = collectionBasics[collection as keyof typeof details];
      return { name: `${labels.noun} detail`, path: `/orgs/demo/${path}/${encodeURIComponent(id)}` };
    }),
    { name: 'Software product', path: `/orgs/demo/software/${encodeURIComponent(product)}` },
    { name: 'Software version', path: `/orgs/demo/software/${encodeURIComponent(product)}/versions/${encodeURIComponent(version)}` },
    { name: 'Sessions', path: '/orgs/demo/sessions' },
    { name: 'Changes of a failing replica', path: syncChangesPath(replicaSlug) },
    { name: 'No such page', path: '/orgs/demo/no-such-view/x' },
  ];
}

test.beforeAll(async ({ browser, request }) => {
  await request.delete(`${server.baseUrl}/app/orgs/${replicaSlug}`, { headers: headers() });
  remote = await startFakeRemote({
    inventory: sampleInventory({ endpoints: 12, targetsPerEndpoint: 2, findingsPerTarget: 2, scopes: 2 }),
    fault: () => (remoteFails ? { status: 401 } : undefined),
  });
  const connected = await request.post(`${server.baseUrl}/app/organizations`, {
    headers: headers(),
    data: { slug: replicaSlug, name: 'Layout replica', remoteUrl: remote.url, apiKey: remote.apiKey },
  });
  expect(connected.status()).toBe(201);
  // The first sync, then the reconcile that follows it, ended.
  await expect.poll(async () => (await syncStatus(request)).state.lastMatchedAt !== null, { timeout: 60_000 }).toBe(true);
  await expect.poll(async () => (await syncStatus(request)).running, { timeout: 60_000 }).toBe(false);
  // The next sync fails: the table shows the remote's error beside the replica's buttons.
  remoteFails = true;
  expect((await request.post(`${server.baseUrl}/app/orgs/${replicaSlug}/sync`, { headers: headers() })).status()).toBe(202);
  await expect.poll(async () => (await syncStatus(request)).state.lastError !== null, { timeout: 60_000 }).toBe(true);

  views = await allViews(request);
  context = await browser.newContext();
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await addSession(page, server.baseUrl, server.session);
});

test.afterAll(async ({ request }) => {
  await context?.close();
  await request.delete(`${server.baseUrl}/app/orgs/${replicaSlug}`, { headers: headers() });
  await remote?.close();
});

/** Waits until the view has drawn its data: its heading, no loading placeholder left, the API address in the top bar. */
async function viewDrawn(): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const address = document.querySelector('[data-testid=api-address]');
        const shown = document.querySelector('main') ?? document.body;
        return !!shown.querySelector('h1, .state') && address?.textContent !== '…' && !/Loading/.test(shown.textContent ?? '');
      }),
    )
    .toBe(true);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** What the page measures of its own layout: the sideways scrolls, the top bar, and the cells cut. */
function measureLayout(options: {
  firstRows: number;
  tablesFit: boolean;
  prefix: number;
  wholeUpTo: number | null;
  whole: Record<string, readonly string[]>;
}) {
  const scrolling = document.scrollingElement!;
  const sideways: string[] = [];
  if (scrolling.scrollWidth > scrolling.clientWidth) sideways.push(`the document (${scrolling.scrollWidth} > ${scrolling.clientWidth})`);
  const main = document.querySelector('main');
  if (main && main.scrollWidth > main.clientWidth) {
    // The outermost element that passes main's right edge: what makes it scroll.
    const edge = main.getBoundingClientRect().left + main.clientWidth;
    const passing = [...main.querySelectorAll<HTMLElement>('*')].find((element) => element.getBoundingClientRect().right > edge + 1);
    const name = passing ? `${passing.tagName.toLowerCase()}${passing.className ? `.${String(passing.className).split(' ')[0]}` : ''}` : 'nothing';
    sideways.push(`main (${main.scrollWidth} > ${main.clientWidth}, ${name} passes its edge)`);
  }
  // Tables fit 1,280 pixels (docs/decisions/the-console/tables-fit-1280-pixels.md); in a narrower window a table scrolls in its own frame, never the page.
  for (const grid of options.tablesFit ? document.querySelectorAll<HTMLElement>('main [role=grid]') : []) {
    if (grid.scrollWidth > grid.clientWidth) sideways.push(`the table "${grid.getAttribute('aria-label')}" (${grid.scrollWidth} > ${grid.clientWidth})`);
  }

  // The top bar is one line: no text in it wraps, and nothing overflows it.
  const topbar = document.querySelector<HTMLElement>('.topbar');
  const wrapped: string[] = [];
  if (topbar) {
    const walker = document.createTreeWalker(topbar, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('option, .visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      if (tops.size > 1) wrapped.push(node.textContent.trim());
    }
  }
  const topbarBox = topbar?.getBoundingClientRect();

  // A cell (a header's too) is cut when its content is wider than it. Deliberately cut text (`.cut-text`) may be,
  // but not a short one where the table has room (the strict sizes).
  const cut: string[] = [];
  const headerOf = (cell: Element): string => {
    const row = cell.parentElement!;
    const index = [...row.children].indexOf(cell);
    const head = cell.closest('[role=grid], table')?.querySelector('[role=columnheader], thead tr');
    const headerCell = head?.matches('[role=columnheader]') ? head.parentElement!.children[index] : head?.children[index];
    return headerCell?.textContent?.trim() || `column ${index + 1}`;
  };
  const rows = [
    ...[...document.querySelectorAll('main [role=grid]')].flatMap((grid) =>
      [...grid.querySelectorAll('[role=row]')].slice(0, options.firstRows + 1),
    ),
    ...[...document.querySelectorAll('main table')].flatMap((table) => [...table.querySelectorAll('tbody tr')].slice(0, options.firstRows)),
  ];
  // The columns held whole: those of `options.whole` in a grid of that name, by the words of their header.
  const heldWhole = (cell: Element): boolean => {
    const columns = options.whole[cell.closest('[role=grid]')?.getAttribute('aria-label') ?? ''];
    const words = headerOf(cell);
    return !!columns?.some((header) => words.split(/(?<=[a-z])(?=[A-Z])|\s+/).join(' ').includes(header));
  };
  for (const row of rows) {
    for (const cell of row.querySelectorAll(':scope > [role=gridcell], :scope > [role=columnheader], :scope > td, :scope > th')) {
      const where = `${headerOf(cell)}: "${(cell.textContent ?? '').trim().slice(0, 60)}"`;
      if (cell.matches('[role=gridcell]') && heldWhole(cell)) {
        const clipped = ([cell, ...cell.querySelectorAll('*')] as HTMLElement[]).find(
          (element) =>
            !element.closest('.visually-hidden') &&
            getComputedStyle(element).overflow !== 'visible' &&
            (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1),
        );
        if (clipped) cut.push(`${where}, a text that must be whole (${clipped.scrollWidth} × ${clipped.scrollHeight} > ${clipped.clientWidth} × ${clipped.clientHeight})`);
        continue;
      }
      for (const element of [cell, ...cell.querySelectorAll('*')] as HTMLElement[]) {
        if (element.closest('.visually-hidden')) continue;
        if (element.scrollWidth <= element.clientWidth + 1 || getComputedStyle(element).overflowX === 'visible') continue;
        const cutText = element.matches('.cut-text') ? element : element.querySelector<HTMLElement>('.cut-text');
        const text = cutText?.textContent ?? '';
        const shown = element.getBoundingClientRect().right;
        // The right edge of the text's first `prefix` characters (the text node's range).
        const prefixRight = (() => {
          const node = cutText?.firstChild;
          if (!node || node.nodeType !== Node.TEXT_NODE) return Infinity;
          const range = document.createRange();
          range.setStart(node, 0);
          range.setEnd(node, Math.min(options.prefix, text.length));
          return range.getBoundingClientRect().right;
        })();
        if (!cutText) cut.push(`${where} (${element.scrollWidth} > ${element.clientWidth})`);
        else if (options.wholeUpTo !== null && text.length <= options.wholeUpTo) cut.push(`${where}, a short text cut (${element.scrollWidth} > ${element.clientWidth})`);
        // The ellipsis takes about an em of what is shown.
        else if (prefixRight > shown - parseFloat(getComputedStyle(element).fontSize) + 1) cut.push(`${where}, its first ${options.prefix} characters cut`);
        break;
      }
    }
  }

  // A plain table's rows have as many cells as its header, and their separators reach its right edge.
  const ragged: string[] = [];
  for (const table of document.querySelectorAll<HTMLTableElement>('main table')) {
    const width = (row: HTMLTableRowElement) => [...row.cells].reduce((sum, cell) => sum + cell.colSpan, 0);
    const header = table.tHead?.rows[0];
    const right = table.getBoundingClientRect().right;
    for (const row of [...table.tBodies].flatMap((body) => [...body.rows]).slice(0, options.firstRows)) {
      const last = row.cells[row.cells.length - 1];
      if (header && width(row) !== width(header)) ragged.push(`${table.caption?.textContent ?? 'a table'}: a row of ${width(row)} cells under a header of ${width(header)}`);
      else if (last && last.getBoundingClientRect().right < right - 1) ragged.push(`${table.caption?.textContent ?? 'a table'}: a row ends ${Math.round(right - last.getBoundingClientRect().right)} px short`);
    }
  }

  // A table's count of rows is above its rows, where it is read before them.
  const countsBelow = [...document.querySelectorAll('main .virtual-table')]
    .filter((table) => {
      const status = table.querySelector('.virtual-table__status');
      const grid = table.querySelector('[role=grid]');
      return !status || !grid || status.getBoundingClientRect().bottom > grid.getBoundingClientRect().top;
    })
    .map((table) => table.querySelector('[role=grid]')?.getAttribute('aria-label') ?? 'a table');

  return {
    sideways,
    countsBelow,
    topbarWrapped: wrapped,
    topbarOverflows: topbar ? topbar.scrollWidth > topbar.clientWidth : false,
    topbarTop: topbarBox?.top ?? null,
    cut,
    ragged,
  };
}

/** Scrolls the view to its end: the wheel over main and over the sidebar, then main and the window themselves. */
async function scrollToEnd(size: { width: number; height: number }): Promise<void> {
  await page.mouse.move(size.width * 0.6, size.height * 0.6);
  await page.mouse.wheel(0, 50_000);
  await page.mouse.wheel(0, 50_000);
  await page.mouse.move(40, size.height - 40);
  await page.mouse.wheel(0, 50_000);
  await page.evaluate(() => {
    const main = document.querySelector('main');
    main?.scrollTo(0, main.scrollHeight);
    window.scrollTo(0, document.scrollingElement!.scrollHeight);
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Views whose screenshots at 1,280 × 800, as opened and scrolled to the end, a person looks at. */
const screenshots = new Set(['Dashboard', 'Remediation performance', 'Tags and rules', 'Organizations', 'Vulnerability findings', 'Endpoints']);

for (const size of viewports) {
  test(`every view at ${size.width} × ${size.height}: the frame stays, nothing scrolls sideways, cells are whole`, async () => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    const failures: string[] = [];
    for (const view of views) {
      await page.goto(`${server.baseUrl}${view.path}`);
      await viewDrawn();
      const drawn = await page.evaluate(measureLayout, {
        firstRows,
        tablesFit: size.width >= 1280,
        prefix: size.width >= 1280 ? cutTextShows.prefix : 0,
        wholeUpTo: size.width >= 1920 ? cutTextShows.wholeUpTo : null,
        whole: size.width >= 1280 ? wholeFrom1280 : {},
      });
      if (view.name === 'Organizations') await page.locator('main table').scrollIntoViewIfNeeded();
      if (size.width === 1280 && screenshots.has(view.name)) await screenshot(page, `layout-${size.width}-${view.name.toLowerCase().replaceAll(' ', '-')}`);
      await scrollToEnd(size);
      if (size.width === 1280 && screenshots.has(view.name)) await screenshot(page, `layout-${size.width}-${view.name.toLowerCase().replaceAll(' ', '-')}-scrolled`);
      const scrolled = await page.evaluate(() => ({
        topbarTop: document.querySelector('.topbar')?.getBoundingClientRect().top ?? null,
        windowScroll: window.scrollY,
        documentHeight: document.scrollingElement!.scrollHeight,
        viewportHeight: window.innerHeight,
      }));
      const at = `${view.name} (${view.path})`;
      for (const what of drawn.sideways) failures.push(`${at}: ${what} scrolls sideways`);
      for (const text of drawn.topbarWrapped) failures.push(`${at}: "${text}" wraps in the top bar`);
      if (drawn.topbarOverflows) failures.push(`${at}: the top bar's content is wider than the top bar`);
      for (const cell of drawn.cut) failures.push(`${at}: cut cell ${cell}`);
      for (const table of drawn.countsBelow) failures.push(`${at}: the table "${table}" says its count of rows below them, or not at all`);
      for (const row of drawn.ragged) failures.push(`${at}: ${row}`);
      if (scrolled.windowScroll !== 0 || scrolled.documentHeight !== scrolled.viewportHeight || (drawn.topbarTop !== null && scrolled.topbarTop !== 0)) {
        failures.push(`${at}: after scrolling to the end the window is scrolled by ${scrolled.windowScroll} px, the document is ${scrolled.documentHeight} px high in a ${scrolled.viewportHeight} px window, the top bar at ${scrolled.topbarTop}`);
      }
    }
    expect(failures).toEqual([]);
    expect(problems, 'errors in the browser console').toEqual([]);
  });
}
