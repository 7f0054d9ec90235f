/**
 * Vulnrichment records through the real binary's `intel import` (issue 37; needs `npm run
 * build:server`): the shared records as a .tar.gz of the repository's folders, made by `tar`,
 * reported with their counts and normalisations; a bad record named with its file and field, and
 * the data directory's files left as they were.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from './support/cli-binary.js';
import { repositoryPath, sharedVulnrichmentFiles } from './support/ssvc-files.js';
import { storeDigest } from './support/store-digest.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-vulnrichment-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

/** The shared records in the repository's folders, with `extra` files, as a .tar.gz made by `tar`; answers its path. */
function tarGz(name: string, extra: Record<string, string> = {}): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-vulnrichment-tree-'));
  for (const file of sharedVulnrichmentFiles()) {
    const target = path.join(folder, 'vulnrichment', repositoryPath(file.name));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.bytes);
  }
  for (const [file, text] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(folder, 'vulnrichment', file)), { recursive: true });
    fs.writeFileSync(path.join(folder, 'vulnrichment', file), text);
  }
  const archive = path.join(dataDir, name);
  execFileSync('tar', ['-czf', archive, '-C', folder, 'vulnrichment']);
  fs.rmSync(folder, { recursive: true, force: true });
  return archive;
}

it('imports the repository folders as .tar.gz and says what it read and normalised', async () => {
  const archive = tarGz('vulnrichment.tar.gz');
  const run = await cli('intel', 'import', archive);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.trim()).toMatch(
    new RegExp(`^${archive.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: imported vulnrichment of 2024-10-\\d\\dT[\\d:.]+Z, SSVC 2\\.0\\.3, \\d+ rows \\(57 records read, \\d+ without SSVC values left out; normalised: .*Exploitation "PoC" as "public poc" ×\\d+.*\\): current$`),
  );
  const status = await cli('intel', 'status');
  expect(status.stdout).toMatch(/^vulnrichment\s+2024-10-/m);
});

it('refuses an archive with a bad record, naming its file and field, and changes nothing', async () => {
  const before = await storeDigest(dataDir);
  const record = JSON.parse(sharedVulnrichmentFiles()[0]!.bytes.toString('utf8'));
  record.cveMetadata.cveId = 'CVE-2099-12';
  const archive = tarGz('bad.tar.gz', { '2099/bad/CVE-2099-1234.json': JSON.stringify(record) });
  const run = await cli('intel', 'import', archive);
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/vulnrichment\/2099\/bad\/CVE-2099-1234\.json is refused: cveMetadata\.cveId is not a CVE id/);
  expect(await storeDigest(dataDir)).toBe(before);
});
