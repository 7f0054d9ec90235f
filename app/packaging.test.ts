import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractFile, listPackage } from '@electron/asar';
import { parse as parsePlist } from 'plist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

// electron-builder packs the built app as `npm run build && npx electron-builder` does, into an
// unpacked directory, around a stand-in for Electron's binary: the real one cannot be downloaded
// everywhere, and all electron-builder does to it here is copy it and flip its fuses, which live
// in a wire after a sentinel string. So the test sees what ships in app.asar and which fuses end up
// set, with electron-builder's own validation of electron-builder.yml on the way.
const repositoryRoot = path.resolve(import.meta.dirname, '..');
const fuseSentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// The fuse wire of Electron 45 as shipped, by @electron/fuses' FuseV1Options index: '1' enabled.
const shippedFuseWire = '10110011';
const fuseIndex = {
  runAsNode: 0,
  enableCookieEncryption: 1,
  enableNodeOptionsEnvironmentVariable: 2,
  enableNodeCliInspectArguments: 3,
  enableEmbeddedAsarIntegrityValidation: 4,
  onlyLoadAppFromAsar: 5,
  grantFileProtocolExtraPrivileges: 7,
} as const;

const builderConfig = YAML.parse(fs.readFileSync(path.join(repositoryRoot, 'electron-builder.yml'), 'utf8')) as Record<string, any>;

function pngSize(file: string): { width: number; height: number } {
  const header = fs.readFileSync(file).subarray(0, 24);
  expect(header.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) };
}

describe('the packaged desktop app', () => {
  let folder: string;
  let unpacked: string;
  let asarFiles: string[];

  beforeAll(() => {
    for (const built of ['dist/app/main.js', 'dist/renderer/index.html', 'dist/server/command-line.js']) {
      if (!fs.existsSync(path.join(repositoryRoot, built))) throw new Error(`${built} is missing: run npm run build first`);
    }
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'packaging-'));
    const electronDist = path.join(folder, 'electron-dist');
    fs.mkdirSync(electronDist);
    fs.writeFileSync(path.join(electronDist, 'electron'), `#!/bin/sh\n# ${fuseSentinel}\x01\x08${shippedFuseWire}\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(electronDist, 'version'), `v${JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'node_modules/electron/package.json'), 'utf8')).version}`);
    const build = spawnSync(
      path.join(repositoryRoot, 'node_modules', '.bin', 'electron-builder'),
      ['--linux', 'dir', '--publish', 'never', `--config.electronDist=${electronDist}`, `--config.directories.output=${path.join(folder, 'release')}`],
      { cwd: repositoryRoot, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    if (build.status !== 0) throw new Error(`electron-builder failed:\n${build.stdout}\n${build.stderr}`);
    unpacked = path.join(folder, 'release', 'linux-unpacked');
    asarFiles = listPackage(path.join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((file) => file.replaceAll('\\', '/'));
  }, 180_000);
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('ships the built main process, preload, server and console, and the WebAssembly of sql.js', () => {
    for (const file of [
      '/package.json',
      '/dist/app/main.js',
      '/dist/app/preload/preload.cjs',
      '/dist/server/start-console-server.js',
      '/dist/renderer/index.html',
      '/node_modules/sql.js/dist/sql-wasm.wasm',
      '/node_modules/express/package.json',
    ]) {
      expect(asarFiles, file).toContain(file);
    }
  });

  it("ships the worker threads' entries beside the modules that start them, where those modules look for them", () => {
    for (const [starterPath, expected] of [
      ['dist/server/start-console-server-worker.js', 'console-server-worker.js'],
      ['dist/server/sync/fetching-thread.js', 'fetching-thread-worker.js'],
    ] as const) {
      const starter = extractFile(path.join(unpacked, 'resources', 'app.asar'), starterPath).toString('utf8');
      const entry = /new URL\('\.\/([\w.-]+\.js)', import\.meta\.url\)/.exec(starter)?.[1];
      expect(entry).toBe(expected);
      expect(asarFiles).toContain(`/${path.posix.dirname(starterPath)}/${entry}`);
    }
  });

  it('ships no sources, source maps or development dependencies', () => {
    const unwanted = asarFiles.filter(
      (file) =>
        /^\/(app|server|renderer|e2e|e2e-electron|bench|resources)\//.test(file) ||
        /\.map$/.test(file) ||
        /^\/node_modules\/(electron|react|react-dom|vite|vitest|typescript|playwright-core|@playwright)\//.test(file),
    );
    expect(unwanted).toEqual([]);
  });

  it('ships no test support: no tests, no test-support folder, no fake remote, no sample inventory', () => {
    const testSupport = asarFiles.filter(
      (file) =>
        /\.test\.js$/.test(file) ||
        /^\/dist\/(server|app)\/test\//.test(file) ||
        /^\/dist\/.*\/test-support(\.js$|\/)/.test(file) ||
        /^\/dist\/.*\/(fake-remote|sample-inventory|sync-fixtures|admin-tools|csv)\.js$/.test(file),
    );
    expect(testSupport).toEqual([]);
  });

  it('flips the fuses of the security checklist in the Electron binary', () => {
    const binary = fs.readFileSync(path.join(unpacked, builderConfig.linux.executableName)).toString('latin1');
    const wire = binary.slice(binary.indexOf(fuseSentinel) + fuseSentinel.length + 2).slice(0, shippedFuseWire.length);
    const fuse = (name: keyof typeof fuseIndex) => wire[fuseIndex[name]] === '1';
    expect(fuse('runAsNode')).toBe(false);
    expect(fuse('enableNodeOptionsEnvironmentVariable')).toBe(false);
    expect(fuse('enableNodeCliInspectArguments')).toBe(false);
    expect(fuse('enableCookieEncryption')).toBe(true);
    expect(fuse('enableEmbeddedAsarIntegrityValidation')).toBe(true);
    expect(fuse('onlyLoadAppFromAsar')).toBe(true);
    expect(fuse('grantFileProtocolExtraPrivileges')).toBe(false);
  });
});

describe('the packaging configuration', () => {
  it('builds an AppImage and a deb, a dmg with the hardened runtime, and an nsis installer', () => {
    expect(builderConfig).toMatchObject({
      appId: 'com.remediationconsole.app',
      productName: 'Remediation Console',
      linux: { target: ['AppImage', 'deb'] },
      mac: { target: 'dmg', hardenedRuntime: true },
      win: { target: 'nsis' },
    });
  });

  it('names the maintainer and homepage a deb package needs', () => {
    const metadata = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { homepage?: string; author?: { email?: string } };
    expect(metadata.homepage).toMatch(/^https:\/\//);
    expect(metadata.author?.email).toMatch(/@/);
  });

  it('grants the macOS build only the JIT entitlement', () => {
    const entitlements = parsePlist(fs.readFileSync(path.join(repositoryRoot, builderConfig.mac.entitlements), 'utf8'));
    expect(entitlements).toEqual({ 'com.apple.security.cs.allow-jit': true });
    expect(builderConfig.mac.entitlementsInherit).toBe(builderConfig.mac.entitlements);
  });

  it('has icons of the sizes each platform needs, in resources/', () => {
    expect(pngSize(path.join(repositoryRoot, builderConfig.mac.icon))).toEqual({ width: 512, height: 512 });
    expect(pngSize(path.join(repositoryRoot, builderConfig.win.icon)).width).toBeGreaterThanOrEqual(256);
    const linuxIcons = path.join(repositoryRoot, builderConfig.linux.icon);
    const sizes = fs.readdirSync(linuxIcons).map((name) => {
      const { width, height } = pngSize(path.join(linuxIcons, name));
      expect(name).toBe(`${width}x${height}.png`);
      return width;
    });
    expect(sizes).toContain(512);
  });
});
