/**
 * `intel import` and `intel status` through the real binary (needs `npm run build:server`): the
 * shared CISA KEV snapshot, a generated EPSS file and an EU KEV sample imported in one command;
 * an older EPSS file kept as history; a refused file named with its line, the others imported,
 * and a command of refused files only leaving the data directory's files as they were.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { epssAttribution } from '../../contracts/console/threat-intel.js';
import { runCli } from './support/cli-binary.js';
import { epssCsv, generatedEpssRows, sharedKevDir } from './support/epss-files.js';
import { storeDigest } from './support/store-digest.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-intel-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

/** Writes a file in the test's folder; answers its path. */
function written(name: string, content: string | Uint8Array): string {
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, content);
  return file;
}

const kevFile = path.join(sharedKevDir, 'known_exploited_vulnerabilities.json');
// Named as nothing in particular: the kind is read from the content.
const epssFile = written('scores.bin', zlib.gzipSync(epssCsv('v2026.06.15', '2026-09-29T12:00:22Z', generatedEpssRows([], 3_000, 1))));
const euFile = written('eu.json', JSON.stringify([{ cveID: 'CVE-2025-48384', euvdID: 'EUVD-2025-19821', vendorProject: 'Git', product: 'Git', dateReported: '2026/08/17' }]));

/** The rows of `intel status`, each split into its columns. */
async function status(): Promise<string[][]> {
  const { status: code, stdout } = await cli('intel', 'status');
  expect(code).toBe(0);
  const lines = stdout.trim().split('\n');
  expect(lines.at(-1)).toBe(epssAttribution);
  return lines.slice(1, -1).map((line) => line.split(/ {2,}/));
}

it('imports the shared KEV snapshot, a generated EPSS file and an EU KEV sample in one command, and lists them', async () => {
  const run = await cli('intel', 'import', kevFile, epssFile, euFile);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.trim().split('\n')).toEqual([
    `${kevFile}: imported cisa-kev of 2025-08-25T17:04:19.979Z, catalog 2025.08.25, 1404 rows: current`,
    `${epssFile}: imported epss of 2026-09-29T12:00:22.000Z, model v2026.06.15, 3000 rows: current`,
    `${euFile}: imported eu-kev of 2026-08-17T00:00:00.000Z, 1 rows: current`,
  ]);
  expect((await status()).map((row) => row.slice(0, 4).concat(row[5]!))).toEqual([
    ['eu-kev', '2026-08-17T00:00:00.000Z', '-', '1', 'current'],
    ['epss', '2026-09-29T12:00:22.000Z', 'v2026.06.15', '3000', 'current'],
    ['cisa-kev', '2025-08-25T17:04:19.979Z', '2025.08.25', '1404', 'current'],
  ]);
});

it('keeps an older EPSS file as history, imports the good files of a command and names the refused one with its line', async () => {
  const older = written('older.csv', epssCsv('v2026.06.15', '2026-09-01', generatedEpssRows([], 100, 2)));
  const bad = written('bad.csv', epssCsv('v2026.06.15', '2026-09-02', [['CVE-2024-1000', '0.5', '0.5'], ['CVE-2024-1001', 'high', '0.5']]));
  const run = await cli('intel', 'import', bad, older);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(`error: ${bad}: Line 4 of the EPSS file: epss "high" is not a number from 0 to 1. Nothing of it was imported.`);
  expect(run.stderr).toContain('1 of 2 files were refused');
  expect(run.stdout.trim()).toBe(`${older}: imported epss of 2026-09-01T00:00:00.000Z, model v2026.06.15, 100 rows: history (older than the current file)`);
  expect((await status()).filter((row) => row[0] === 'epss').map((row) => [row[1], row[5]])).toEqual([
    ['2026-09-01T00:00:00.000Z', 'history (older than the current file)'],
    ['2026-09-29T12:00:22.000Z', 'current'],
  ]);
});

it('leaves the data directory as it was when every file is refused, or imported before', async () => {
  const before = await storeDigest(dataDir);
  const truncated = written('truncated.json', fs.readFileSync(kevFile).subarray(0, 10_000));
  const refused = await cli('intel', 'import', truncated);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/truncated\.json: The file starts as JSON but is not JSON \(a truncated file\?\)/);
  expect(refused.stderr).toContain('The file was refused (see above): nothing was imported.');
  const again = await cli('intel', 'import', kevFile);
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/already imported on .*; nothing changed/);
  expect(await storeDigest(dataDir)).toBe(before);
  const missing = await cli('intel', 'import', path.join(dataDir, 'nowhere.csv'));
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(/Cannot read the file .*nowhere\.csv: there is no such file/);
});
