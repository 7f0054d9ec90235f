import { type Browser, type Page, chromium } from 'playwright-core';
import type { ConsoleSessionCookie } from '../e2e/support/serve-process.js';
import playwrightConfig from '../playwright.config.js';

/** A view of the console the benchmark opens, and what shows that its content is there. */
interface BenchView {
  name: string;
  /** The path under the organization, '' for the dashboard. */
  section: string;
  /** The accessible name of its navigation link. */
  link: string;
  /** Matches once the first rows with data are in the DOM. */
  ready: string;
}

const tableRows = '.virtual-table__body [role="row"]:not(.is-loading)';

const views: BenchView[] = [
  { name: 'dashboard (totals)', section: '', link: 'Dashboard', ready: '.figures .figure' },
  { name: 'endpoints', section: 'endpoints', link: 'Endpoints', ready: tableRows },
  { name: 'remediation targets', section: 'remediation-targets', link: 'Remediation targets', ready: tableRows },
  { name: 'scopes', section: 'scopes', link: 'Scopes', ready: tableRows },
  { name: 'vulnerability findings', section: 'vulnerability-findings', link: 'Vulnerability findings', ready: tableRows },
  { name: 'software', section: 'software', link: 'Software', ready: tableRows },
  { name: 'remediation plan (sentences and curve)', section: 'remediation-plan', link: 'Remediation plan', ready: '.curve-card .recharts-line-curve' },
];

/*
 * The probes run in the page and are given as source text: functions would be serialised from
 * what tsx compiled, helpers included that the page does not have. Each resolves at the first
 * animation frame after its selector matches, the frame that paints the rows, in the page's
 * own clock (performance.now() counts from the start of the navigation).
 */
const whenPainted = `(selector) => new Promise((resolve) => {
  const check = () => {
    if (!document.querySelector(selector)) return false;
    requestAnimationFrame(() => resolve(performance.now()));
    return true;
  };
  if (check()) return;
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
})`;

const afterClick = `([selector, linkName]) => {
  const link = [...document.querySelectorAll('nav a')].find((a) => a.textContent.trim() === linkName);
  if (!link) throw new Error('no navigation link ' + linkName);
  const painted = (${whenPainted})(selector);
  const start = performance.now();
  link.click();
  return painted.then((end) => end - start);
}`;

/*
 * Scrolls the table at a steady speed, the position a function of time (as a fling or a held
 * key would move it), and records every frame's interval and whether a row in view was still
 * a "Loading…" placeholder when the frame ran.
 */
const scrollAndCount = `([pixelsPerSecond, milliseconds]) => new Promise((resolve) => {
  const scroller = document.querySelector('.virtual-table__scroll');
  const intervals = [];
  let blank = 0;
  let start;
  let previous;
  const frame = (now) => {
    if (start === undefined) start = now;
    else intervals.push(now - previous);
    previous = now;
    if (scroller.querySelector('.virtual-table__body .is-loading')) blank += 1;
    if (now - start >= milliseconds) {
      resolve({ intervals, blank, rows: Math.floor(scroller.scrollTop / 32) });
      return;
    }
    scroller.scrollTop = ((now - start) * pixelsPerSecond) / 1000;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

/** Milliseconds to the first rows of one view: opened by its URL, and by a click on its link. */
export interface ViewTimings {
  view: string;
  /** The warm-up: the first time the view was opened by its URL since `serve` started. */
  first: number;
  load: number[];
  click: number[];
}

/** Frames while the findings table scrolled. */
export interface ScrollFigures {
  seconds: number;
  rowsPerSecond: number;
  frames: number;
  fps: number;
  /** Frames that took more than 1.5 × 16.7 ms. */
  dropped: number;
  worstFrame: number;
  /** Frames in which a row in view was still a placeholder. */
  blank: number;
  rowsScrolled: number;
}

/** How the benchmark reaches the console: the URL `serve` printed, the console session its link opened, and the organization to open. */
export interface ConsoleTarget {
  consoleUrl: string;
  session: ConsoleSessionCookie;
  slug: string;
}

async function openPage(browser: Browser, target: ConsoleTarget): Promise<Page> {
  // A new context each time: an empty HTTP cache, as a newly opened console, with the session's cookie (a bookmark opened in a browser that has a session).
  const context = await browser.newContext({ viewport: playwrightConfig.use?.viewport ?? null });
  await context.addCookies([{ ...target.session, url: new URL(target.consoleUrl).origin, httpOnly: true, sameSite: 'Strict' }]);
  return context.newPage();
}

async function openView(browser: Browser, target: ConsoleTarget, view: BenchView): Promise<{ page: Page; elapsed: number }> {
  const url = new URL(target.consoleUrl);
  const page = await openPage(browser, target);
  await page.addInitScript(`window.__benchPainted = (${whenPainted})(${JSON.stringify(view.ready)});`);
  await page.goto(`${url.origin}/orgs/${encodeURIComponent(target.slug)}${view.section ? `/${view.section}` : ''}`);
  const elapsed = await page.evaluate('window.__benchPainted');
  return { page, elapsed: elapsed as number };
}

async function clickTo(browser: Browser, target: ConsoleTarget, view: BenchView): Promise<number> {
  // Start from a view without the target's marker, loaded and idle, with an empty query cache.
  const from = views.find((other) => other.ready !== view.ready)!;
  const { page } = await openView(browser, target, from);
  try {
    return (await page.evaluate(`(${afterClick})(${JSON.stringify([view.ready, view.link])})`)) as number;
  } finally {
    await page.context().close();
  }
}

/**
 * Times each view `runs` times, opened by URL and by a click on its navigation link, then
 * scrolls the findings table for `scrollSeconds` at `rowsPerSecond`. With `tracePath`, a
 * Chromium performance trace of the scroll is written there (open it in DevTools).
 */
export async function measureConsole(
  target: ConsoleTarget,
  options: { runs: number; scrollSeconds: number; rowsPerSecond: number; tracePath?: string },
): Promise<{ views: ViewTimings[]; scroll: ScrollFigures }> {
  const browser = await chromium.launch({ ...playwrightConfig.use?.launchOptions, headless: true });
  try {
    // Warm the server's caches and the OS page cache once, as a console in use would have them.
    const timings: ViewTimings[] = [];
    for (const view of views) {
      const opened = await openView(browser, target, view);
      await opened.page.context().close();
      timings.push({ view: view.name, first: opened.elapsed, load: [], click: [] });
    }
    for (let run = 0; run < options.runs; run += 1) {
      for (const [index, view] of views.entries()) {
        const opened = await openView(browser, target, view);
        await opened.page.context().close();
        timings[index]!.load.push(opened.elapsed);
        timings[index]!.click.push(await clickTo(browser, target, view));
      }
    }

    const findings = views.find((view) => view.section === 'vulnerability-findings')!;
    const { page } = await openView(browser, target, findings);
    if (options.tracePath) await browser.startTracing(page, { path: options.tracePath, screenshots: false });
    const result = (await page.evaluate(
      `(${scrollAndCount})(${JSON.stringify([options.rowsPerSecond * 32, options.scrollSeconds * 1000])})`,
    )) as { intervals: number[]; blank: number; rows: number };
    if (options.tracePath) await browser.stopTracing();
    await page.context().close();
    const seconds = result.intervals.reduce((sum, interval) => sum + interval, 0) / 1000;
    return {
      views: timings,
      scroll: {
        seconds,
        rowsPerSecond: options.rowsPerSecond,
        frames: result.intervals.length,
        fps: result.intervals.length / seconds,
        dropped: result.intervals.filter((interval) => interval > 1.5 * (1000 / 60)).length,
        worstFrame: Math.max(...result.intervals),
        blank: result.blank,
        rowsScrolled: result.rows,
      },
    };
  } finally {
    await browser.close();
  }
}
