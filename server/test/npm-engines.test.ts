/**
 * `npm ci` as a newcomer runs it: every package it warns about (EBADENGINE) on the Node running
 * the tests is named in the decision record of why that is harmless, so that a new one is
 * either explained there or replaced. On Node 20 (package.json's engines say >=20.19) it warns
 * about Electron's tooling; on 22.12 or later, about nothing. npm runs on copies of package.json
 * and package-lock.json in a folder of their own, installing nothing (`--dry-run`) and without
 * the network (`--offline`). (npm 11's `--node-version` does not change the Node engines are
 * judged against, so the Node that runs the test is the one judged.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { decisionRecordText } from './support/decision-records.js';

const root = packageRoot();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-npm-engines-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** The title of the decision record. */
const recordTitle = "npm ci warns about Electron's tooling on Node 20";

it('warns about the engines of no package but those the decision record says are harmless', () => {
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, file), path.join(folder, file));
  const run = spawnSync('npm', ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: folder,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'warn' },
  });
  expect(run.status, run.stderr).toBe(0);
  const warned = [...run.stderr.matchAll(/EBADENGINE\s+package: '(@?[^@']+)@/g)].map((match) => match[1]!);

  const record = decisionRecordText(root, recordTitle);
  expect(record, `no decision record "${recordTitle}"`).toBeDefined();
  const named = new Set([...record!.matchAll(/`(@?[^`@\s]+)(?:@[^`]*)?`/g)].map((match) => match[1]!));
  expect(warned.filter((name) => !named.has(name))).toEqual([]);
});
