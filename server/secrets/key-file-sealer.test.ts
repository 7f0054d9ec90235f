import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyFileSealer } from './key-file-sealer.js';
import { sealedSecretFormat } from './sealer.js';
import { secretStorages } from './secret-storages.js';

describe('keyFileSealer', () => {
  let dir: string;
  let keyFile: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-sealer-'));
    keyFile = path.join(dir, 'sealing.key');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates an owner-only key on first use and unseals what it sealed, also after a restart', () => {
    const secret = Buffer.from([0, 1, 2, 255, ...Buffer.from('enrollment secret')]);
    const sealed = keyFileSealer(keyFile).seal(secret);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(sealed[0]).toBe(sealedSecretFormat.keyFile);
    expect(sealed.includes(Buffer.from('enrollment secret'))).toBe(false);
    expect(keyFileSealer(keyFile).unseal(sealed)).toEqual(secret);
  });

  it('reports a headless key file, with no keychain involved, unless told otherwise', () => {
    expect(keyFileSealer(keyFile).secretStorage).toMatchObject({ protection: 'key-file', keychainAvailable: null });
    expect(keyFileSealer(keyFile, secretStorages.keyFileWithoutKeychain).secretStorage.keychainAvailable).toBe(false);
  });

  it('refuses a sealed secret whose bytes were changed', () => {
    const sealer = keyFileSealer(keyFile);
    const sealed = sealer.seal(Buffer.from('remote API key'));
    sealed[sealed.length - 1]! ^= 1;
    expect(() => sealer.unseal(sealed)).toThrow();
  });

  it("says plainly that a secret sealed by the desktop app's keychain can be read only there", () => {
    const fromDesktop = Buffer.from([sealedSecretFormat.desktopKeychain, 1, 2, 3]);
    expect(() => keyFileSealer(keyFile).unseal(fromDesktop)).toThrow(/sealed by the desktop app .* only the desktop app/);
  });

  it('names a damaged key file', () => {
    fs.writeFileSync(keyFile, 'short', { mode: 0o600 });
    expect(() => keyFileSealer(keyFile)).toThrow(`The sealing key ${keyFile} is damaged (expected 32 bytes)`);
  });
});
