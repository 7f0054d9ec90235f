import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { cli, consoleUrlOf, createScriptToken, demoKeyOf, openSession, root, serve, stop } from './serve-process.js';

const run = (dataDir: string, ...args: string[]) => execFileSync(process.execPath, [cli, ...args, '--data-dir', dataDir], { cwd: root, encoding: 'utf8' });

/**
 * A data directory with the demo organization (created by the first start of `serve`) and a
 * second organization made with the CLI, copied once for each Playwright worker and served
 * headless from each copy: a worker's specs change only its own server's data. Each server's
 * console session (opened with the link `serve` printed, as the console's page opens it), script
 * token (made with the CLI) and the demo API key reach the tests through the environment, under
 * the worker's index (support/console-page.ts reads them).
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) throw new Error('The console is not built: run "npm run build" first.');
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-'));
  const first = await serve(template);
  const demoKey = demoKeyOf(first.output);
  await stop(first.child);
  run(template, 'orgs', 'create', '--slug', 'second', '--name', 'Second');
  run(template, 'seed', '--org', 'second', '--size', 'demo', '--seed', '2');

  const dataDirs = Array.from({ length: config.workers }, (_, worker) => {
    const dataDir = `${template}-${worker}`;
    fs.cpSync(template, dataDir, { recursive: true });
    return dataDir;
  });
  const servers = await Promise.all(dataDirs.map((dataDir) => serve(dataDir)));
  for (const [worker, { output }] of servers.entries()) {
    const url = consoleUrlOf(output);
    const session = await openSession(url);
    Object.assign(process.env, {
      [`E2E_BASE_URL_${worker}`]: url.origin,
      [`E2E_SESSION_VALUE_${worker}`]: session.value,
      [`E2E_SESSION_COOKIE_${worker}`]: session.name,
      [`E2E_SCRIPT_TOKEN_${worker}`]: createScriptToken(dataDirs[worker]!, 'e2e'),
    });
  }
  process.env.E2E_DEMO_API_KEY = demoKey;
  fs.mkdirSync(path.join(root, 'e2e', 'artifacts'), { recursive: true });
  return async () => {
    await Promise.all(servers.map(({ child }) => stop(child)));
    for (const dataDir of [template, ...dataDirs]) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
