/**
 * `agent-config --out FILE`, through the real binary: it says exactly which file it wrote, and
 * says so when the name given does not end as the file's kind does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-binary.js';

let dataDir: string;
let work: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-agent-cli-'));
  dataDir = path.join(work, 'data');
  for (const args of [
    ['orgs', 'create', '--slug', 'acme', '--name', 'Acme'],
    ['orgs', 'agent-settings', '--org', 'acme', '--server-url', 'https://agents.acme.example', '--team-id', 'Q7M3K9D2XP'],
  ]) {
    const run = await runCli([...args, '--data-dir', dataDir]);
    expect(run.status, run.stderr).toBe(0);
  }
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Writes a file with agent-config; answers what it printed. */
async function agentConfig(out: string, platform: string, profile: string) {
  const run = await runCli(['agent-config', '--org', 'acme', '--platform', platform, '--profile', profile, '--out', out, '--data-dir', dataDir]);
  expect(run.status, run.stderr).toBe(0);
  return run;
}

describe('agent-config --out', () => {
  it.each([
    ['linux', 'config', 'linux-file', '.zip'],
    ['macos', 'mdm-full', 'profile.zip', '.mobileconfig'],
  ])('names the file it wrote, %s %s to %s, and that it is a %s', async (platform, profile, name, extension) => {
    const out = path.join(work, name);
    const { stdout, stderr } = await agentConfig(out, platform, profile);
    expect(stdout).toBe(`Wrote ${out} (${fs.statSync(out).size} bytes)\n`);
    expect(stderr).toBe(
      `Note: the file is a ${extension} (the API names it remediation-agent-acme-${platform}-${profile}${extension}), ` +
        `but --out ${out} does not end in ${extension}: rename it so that tools that go by the extension open it\n`,
    );
    // Nothing was written under the name the API gives the file.
    expect(fs.readdirSync(work).sort()).toEqual(['data', name].sort());
    fs.rmSync(out);
  });

  it('says nothing more when the name ends as the file does', async () => {
    const out = path.join(work, 'agent.MOBILECONFIG');
    const { stdout, stderr } = await agentConfig(out, 'macos', 'mdm-permissions');
    expect(stdout).toBe(`Wrote ${out} (${fs.statSync(out).size} bytes)\n`);
    expect(stderr).toBe('');
    fs.rmSync(out);
  });
});
