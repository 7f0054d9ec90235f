import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConsoleTestServer, startConsoleTestServer } from '../../test/support/console-test-server.js';
import { type TestServer, startTestServer } from '../../test/support/test-server.js';

const redoclyCli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** What `redocly lint --format json` reports. */
interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

/** Lints a document with Redocly CLI's `recommended` rules, as a tool that reads it would. */
async function lint(file: string): Promise<LintReport> {
  const { stdout } = await promisify(execFile)(process.execPath, [redoclyCli, 'lint', '--extends', 'recommended', '--format', 'json', file], {
    // No usage data or update check leaves the machine.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as LintReport;
}

let v1Server: TestServer;
let consoleServer: ConsoleTestServer;
let folder: string;
beforeAll(async () => {
  [v1Server, consoleServer] = await Promise.all([startTestServer([]), startConsoleTestServer([])]);
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-openapi-lint-'));
});
afterAll(async () => {
  await Promise.all([v1Server.close(), consoleServer.close()]);
  fs.rmSync(folder, { recursive: true, force: true });
});

it.each([
  ['/v1/openapi.json', () => fetch(`${v1Server.url}/v1/openapi.json`).then((response) => response.text())],
  ['/app/openapi.json', () => consoleServer.app('/openapi.json').then((response) => JSON.stringify(response.body))],
])("%s, as served, passes Redocly's recommended rules without an error or a warning", async (name, served) => {
  const file = path.join(folder, `${name.split('/')[1]}-openapi.json`);
  fs.writeFileSync(file, await served());
  const report = await lint(file);
  const problems = report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
});
