import os from 'node:os';
import { type ConsoleTarget, measureConsole } from './console-bench.js';

const runs = Number(process.env.BENCH_CONSOLE_RUNS ?? 5);
const scrollSeconds = Number(process.env.BENCH_SCROLL_SECONDS ?? 5);
const rowsPerSecond = Number(process.env.BENCH_SCROLL_ROWS ?? 100);

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const figure = (values: number[]) => `${median(values).toFixed(0)} ms | ${Math.max(...values).toFixed(0)} ms`;

/**
 * The report section of the console in Chromium: each view's time to its first rows, and
 * frames while the findings table scrolls. BENCH_CONSOLE_TRACE=file also writes a Chromium
 * performance trace of the scroll.
 */
export async function reportConsole(target: ConsoleTarget, say: (line?: string) => void): Promise<void> {
  const { slug } = target;
  const loadBefore = os.loadavg()[0]!;
  const { views, scroll } = await measureConsole(target, { runs, scrollSeconds, rowsPerSecond, tracePath: process.env.BENCH_CONSOLE_TRACE });
  say(`## The console in Chromium`);
  say();
  say(
    `Debian's Chromium, headless, driven by Playwright with the e2e launch options; organization \`${slug}\`. Time from the start of ` +
      `the navigation to the animation frame that paints the first rows with data (the totals on the dashboard), in the page's ` +
      `own clock: opened by its URL in a new browser context (empty cache), and by a click on its navigation link from another ` +
      `view just loaded. ${runs} run${runs === 1 ? '' : 's'} each, after one warm-up: the first open since \`serve\` started (its caches cold). ` +
      `Load average (1 min) ${loadBefore.toFixed(1)} before the section, ${os.loadavg()[0]!.toFixed(1)} after it.`,
  );
  say();
  say(`| view | by URL: median | worst | by click: median | worst | first open | target |`);
  say(`|---|---|---|---|---|---|---|`);
  for (const view of views) say(`| ${view.view} | ${figure(view.load)} | ${figure(view.click)} | ${view.first.toFixed(0)} ms | ≤ 1 s |`);
  say();
  say(
    `Scrolling the findings table programmatically at ${scroll.rowsPerSecond} rows/s for ${scroll.seconds.toFixed(1)} s ` +
      `(${scroll.rowsScrolled.toLocaleString('en')} rows), frames counted with requestAnimationFrame:`,
  );
  say();
  say(`| frames | fps | dropped (> 25 ms) | worst frame | frames with a placeholder row in view | target |`);
  say(`|---|---|---|---|---|---|`);
  say(`| ${scroll.frames} | ${scroll.fps.toFixed(1)} | ${scroll.dropped} | ${scroll.worstFrame.toFixed(0)} ms | ${scroll.blank} | no dropped frames |`);
  say();
}
