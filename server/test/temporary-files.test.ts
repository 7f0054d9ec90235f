/**
 * Atomic writes against another local user who can write the folder: the new file beside the
 * target has a random name, is created exclusively (a file or symlink planted at its name fails
 * the write, never receives it) and gets its mode on the open file; the store's open still
 * sweeps what a crash left under the new names. The agent file the CLI writes, through the
 * real binary, with a symlink planted at the name the old writer used.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readOrCreateKey } from '../secrets/key-file-sealer.js';
import { cliBinary, runCli } from './support/cli-binary.js';
import { createFileExclusively, dataDirectoryFiles, writeFileAtomically } from '../store/engine/data-directory.js';
import { files } from '../store/engine/engine-files.js';
import { temporaryFileName } from '../store/engine/file-steps.js';
import { Store } from '../store/store.js';

const folders: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function newFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-file-steps-'));
  folders.push(dir);
  return dir;
}

/** The file's permission bits and whether this process owns it. */
function status(file: string): { mode: number; ours: boolean } {
  const stat = fs.lstatSync(file);
  return { mode: stat.mode & 0o777, ours: process.getuid === undefined || stat.uid === process.getuid() };
}

describe('writeFileAtomically', () => {
  it('never writes through the name the old writer used (FILE.<pid>.tmp), planted as a file or as a symlink', () => {
    const dir = newFolder();
    const target = path.join(dir, 'agent.zip');
    const oldName = `${target}.${process.pid}.tmp`;
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'the victim', { mode: 0o666 });
    fs.chmodSync(victim, 0o666);
    for (const plant of [() => fs.writeFileSync(oldName, 'planted', { mode: 0o666 }), () => fs.symlinkSync(victim, oldName)]) {
      fs.rmSync(oldName, { force: true });
      plant();
      writeFileAtomically(target, Buffer.from('the enrollment secret'), 0o600);
      expect(fs.readFileSync(target, 'utf8')).toBe('the enrollment secret');
      expect(status(target)).toEqual({ mode: 0o600, ours: true });
      expect(fs.lstatSync(target).isSymbolicLink()).toBe(false);
    }
    expect(fs.readFileSync(victim, 'utf8')).toBe('the victim');
    expect(fs.readlinkSync(oldName)).toBe(victim);
    // Nothing else is left beside it.
    expect(fs.readdirSync(dir).sort()).toEqual(['agent.zip', path.basename(oldName), 'victim'].sort());
  });

  it('fails, writing nothing anywhere, when the random name was taken first (a file or a symlink)', () => {
    const dir = newFolder();
    const target = path.join(dir, 'api.json');
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(target, 'the old content');
    fs.writeFileSync(victim, 'the victim');
    const open = files.openSync;
    // The other user wins the race for the name the write chose: the write sees the name taken.
    for (const plant of [(name: string) => fs.writeFileSync(name, 'planted', { mode: 0o666 }), (name: string) => fs.symlinkSync(victim, name)]) {
      vi.spyOn(files, 'openSync').mockImplementationOnce((file, flags, mode) => {
        plant(String(file));
        return open(file, flags, mode);
      });
      expect(() => writeFileAtomically(target, Buffer.from('new content'))).toThrow(/EEXIST/);
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('the old content');
    expect(fs.readFileSync(victim, 'utf8')).toBe('the victim');
  });

  it('sets the mode on the open file, exactly, whatever the umask takes away', () => {
    const dir = newFolder();
    for (const mode of [0o600, 0o644, 0o666]) {
      const file = path.join(dir, `mode-${mode.toString(8)}`);
      writeFileAtomically(file, Buffer.from('x'), mode);
      expect(status(file)).toEqual({ mode, ours: true });
    }
  });

  it('removes its new file when the write fails, and names each new file at random', () => {
    const dir = newFolder();
    const target = path.join(dir, 'settings.json');
    vi.spyOn(files, 'writeSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    expect(() => writeFileAtomically(target, Buffer.from('{}'))).toThrow(/ENOSPC/);
    expect(fs.readdirSync(dir)).toEqual([]);
    // A folder at the name: the rename fails, and the new file goes.
    fs.mkdirSync(target);
    expect(() => writeFileAtomically(target, Buffer.from('{}'))).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(fs.readdirSync(dir)).toEqual(['settings.json']);
    fs.rmdirSync(target);
    const names = new Set(Array.from({ length: 100 }, () => temporaryFileName(target)));
    expect(names.size).toBe(100);
    for (const name of names) expect(path.basename(name)).toMatch(/^settings\.json\.[0-9a-f]{16}\.tmp$/);
  });
});

describe('files created once (the lock, the sealing keys)', () => {
  it('never creates through a planted symlink, never uses a key another user could know, and gets exactly its mode', () => {
    const dir = newFolder();
    const victim = path.join(dir, 'elsewhere', 'victim.key');
    const keyFile = path.join(dir, 'sealing.key');
    fs.symlinkSync(victim, keyFile);
    expect(() => readOrCreateKey(keyFile)).toThrow(`The key file ${keyFile} is a symbolic link`);
    expect(fs.existsSync(victim)).toBe(false);

    // A key file planted before the first start is refused, never used: its planter would know the key.
    const planted = path.join(dir, 'planted.key');
    fs.writeFileSync(planted, Buffer.alloc(32, 7));
    fs.chmodSync(planted, 0o644);
    expect(() => readOrCreateKey(planted)).toThrow(
      `The key file ${planted} can be read or written by other users (mode 0644): another user could know the key, so it is not used. ` +
        'If the file is yours, make it so ("chmod 600"); otherwise remove it.',
    );
    fs.chmodSync(planted, 0o600);
    const linked = path.join(dir, 'linked.key');
    fs.symlinkSync(planted, linked);
    expect(() => readOrCreateKey(linked)).toThrow(`The key file ${linked} is a symbolic link: a key is read only from a file of its own. Remove the link.`);
    if (process.getuid?.() === 0) {
      fs.chownSync(planted, 65534, 65534);
      expect(() => readOrCreateKey(planted)).toThrow(`The key file ${planted} belongs to another user (uid 65534)`);
      fs.chownSync(planted, 0, 0);
    }
    expect(readOrCreateKey(planted)).toEqual(Buffer.alloc(32, 7));

    const created = path.join(dir, 'console-session.key');
    createFileExclusively(created, Buffer.alloc(32, 1), 0o640);
    expect(status(created)).toEqual({ mode: 0o640, ours: true });
    expect(() => createFileExclusively(created, Buffer.alloc(32, 2))).toThrow(/EEXIST/);
    expect(fs.readFileSync(created)).toEqual(Buffer.alloc(32, 1));
  });
});

describe("the store's open", () => {
  it('removes the new files a killed writer left beside the database, under their random names, and nothing else', async () => {
    const dataDir = newFolder();
    (await Store.open({ dataDir })).close();
    const database = dataDirectoryFiles(dataDir).database;
    const left = [temporaryFileName(database), temporaryFileName(`${database}.header`)];
    for (const file of left) fs.writeFileSync(file, 'half written');
    const other = path.join(dataDir, 'notes.tmp');
    fs.writeFileSync(other, 'not the store’s');
    const before = fs.readdirSync(dataDir).filter((name) => !left.includes(path.join(dataDir, name)));
    (await Store.open({ dataDir })).close();
    expect(fs.readdirSync(dataDir).sort()).toEqual(before.sort());
    expect(fs.existsSync(other)).toBe(true);
  });
});

describe('agent-config --out, through the real binary (needs `npm run build:server`)', () => {
  it('writes the file with the enrollment secret 0600 and ours, through no symlink planted at the old name FILE.<pid>.tmp', async () => {
    const dataDir = newFolder();
    const shared = newFolder();
    fs.chmodSync(shared, 0o777);
    const created = await runCli(['orgs', 'create', '--slug', 'acme', '--name', 'Acme', '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    const out = path.join(shared, 'acme-linux.zip');
    // Another user's file, writable by all, and the symlink they plant where the old writer put its new file.
    const victim = path.join(shared, 'theirs');
    fs.writeFileSync(victim, '');
    fs.chmodSync(victim, 0o666);
    const args = ['agent-config', '--org', 'acme', '--platform', 'linux', '--out', out, '--server-url', 'https://agents.acme.example', '--data-dir', dataDir];
    const child = spawn(process.execPath, [cliBinary, ...args]);
    fs.symlinkSync(victim, `${out}.${child.pid}.tmp`);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => child.once('close', resolve)), stderr).toBe(0);
    expect(fs.lstatSync(out).isSymbolicLink()).toBe(false);
    expect(status(out)).toEqual({ mode: 0o600, ours: true });
    expect(fs.readFileSync(out).subarray(0, 2).toString()).toBe('PK');
    expect(fs.statSync(victim).size).toBe(0);

    // A folder at the name: a sentence naming the option, and nothing left beside it.
    fs.mkdirSync(`${out}.d`);
    const refused = await runCli([...args.slice(0, 6), `${out}.d`, ...args.slice(7)]);
    expect(refused).toMatchObject({ status: 1, stderr: `error: Cannot write --out ${out}.d: it is a folder, not a file; nothing was written\n` });
    expect(fs.readdirSync(shared).sort()).toEqual(['acme-linux.zip', 'acme-linux.zip.d', path.basename(`${out}.${child.pid}.tmp`), 'theirs'].sort());
  }, 60_000);
});
