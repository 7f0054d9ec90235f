import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, consoleUrlOf, createScriptToken, demoKeyOf, openSession, root, serve, stop } from './serve-process.js';

const run = (dataDir: string, ...args: string[]) => execFileSync(process.execPath, [cli, ...args, '--data-dir', dataDir], { cwd: root, encoding: 'utf8' });

/**
 * A data directory with the demo organization (created by the first start of `serve`) and a
 * second organization made with the CLI, served headless; a console session (opened with the
 * link `serve` printed, as the console's page opens it), a script token (made with the CLI) and
 * the demo API key reach the tests through the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) throw new Error('The console is not built: run "npm run build" first.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-e2e-'));
  const first = await serve(dataDir);
  const demoKey = demoKeyOf(first.output);
  await stop(first.child);
  run(dataDir, 'orgs', 'create', '--slug', 'second', '--name', 'Second');
  run(dataDir, 'seed', '--org', 'second', '--size', 'demo', '--seed', '2');

  const { child, output } = await serve(dataDir);
  const url = consoleUrlOf(output);
  process.env.E2E_BASE_URL = url.origin;
  const session = await openSession(url);
  process.env.E2E_SESSION_VALUE = session.value;
  process.env.E2E_SESSION_COOKIE = session.name;
  process.env.E2E_SCRIPT_TOKEN = createScriptToken(dataDir, 'e2e');
  process.env.E2E_DEMO_API_KEY = demoKey;
  fs.mkdirSync(path.join(root, 'e2e', 'artifacts'), { recursive: true });
  return async () => {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
