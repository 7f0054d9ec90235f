import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyFileSealer } from '../../server/secrets/key-file-sealer.js';
import { secretStorages } from '../../server/secrets/secret-storages.js';
import { dataDirectoryFiles } from '../../server/store/engine/data-directory.js';
import { dialog, resetFakeElectron, safeStorage } from '../test/fake-electron.js';
import { chooseSealer } from './choose-sealer.js';
import { readDesktopSettings } from './desktop-settings.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

describe('chooseSealer', () => {
  let dataDir: string;
  beforeEach(() => {
    resetFakeElectron();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'choose-sealer-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const keyFile = () => dataDirectoryFiles(dataDir).sealingKey;
  const platform = process.platform;
  const basicTextOnLinux = () => {
    Object.defineProperty(process, 'platform', { value: 'linux' });
    safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
  };
  afterEach(() => Object.defineProperty(process, 'platform', { value: platform }));

  it('uses safeStorage with a system keychain, asking nothing and making no key file', () => {
    const sealer = chooseSealer(dataDir);
    expect(sealer.secretStorage).toEqual(secretStorages.systemKeychain);
    expect(sealer.secretStorage).toMatchObject({ protection: 'system-keychain', keychainAvailable: true });
    expect(sealer.unseal(sealer.seal(Buffer.from('secret')))).toEqual(Buffer.from('secret'));
    expect(safeStorage.encryptString).toHaveBeenCalled();
    expect(dialog.showMessageBoxSync).not.toHaveBeenCalled();
    expect(fs.existsSync(keyFile())).toBe(false);
  });

  it('still unseals what the headless key-file sealer sealed in the same data directory', () => {
    const sealedHeadless = keyFileSealer(keyFile()).seal(Buffer.from([0, 1, 2, 255]));
    expect(chooseSealer(dataDir).unseal(sealedHeadless)).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('on basic_text, uses the key file unless the user agrees to plain text, and remembers the answer', () => {
    basicTextOnLinux();
    dialog.showMessageBoxSync.mockReturnValue(0);
    const sealer = chooseSealer(dataDir);
    expect(sealer.secretStorage).toEqual(secretStorages.keyFileWithoutKeychain);
    expect(sealer.secretStorage).toMatchObject({ protection: 'key-file', keychainAvailable: false });
    expect(sealer.unseal(sealer.seal(Buffer.from('secret')))).toEqual(Buffer.from('secret'));
    expect(fs.existsSync(keyFile())).toBe(true);
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(readDesktopSettings(dataDir).secretSealing).toBe('key-file');

    chooseSealer(dataDir);
    expect(dialog.showMessageBoxSync).toHaveBeenCalledTimes(1);
  });

  it('on basic_text, uses safeStorage once the user agreed', () => {
    basicTextOnLinux();
    dialog.showMessageBoxSync.mockReturnValue(1);
    const sealer = chooseSealer(dataDir);
    expect(sealer.secretStorage).toEqual(secretStorages.plainTextWithoutKeychain);
    expect(sealer.secretStorage).toMatchObject({ protection: 'plain-text', keychainAvailable: false });
    sealer.seal(Buffer.from('secret'));
    expect(safeStorage.encryptString).toHaveBeenCalled();
    expect(readDesktopSettings(dataDir).secretSealing).toBe('basic-text');
    expect(chooseSealer(dataDir).secretStorage.protection).toBe('plain-text');
    expect(dialog.showMessageBoxSync).toHaveBeenCalledTimes(1);
  });

  it('without safeStorage, tells the user once and uses the key file', () => {
    safeStorage.isEncryptionAvailable.mockReturnValue(false);
    expect(chooseSealer(dataDir).secretStorage).toEqual(secretStorages.keyFileWithoutKeychain);
    expect(chooseSealer(dataDir).secretStorage).toMatchObject({ protection: 'key-file', keychainAvailable: false });
    expect(dialog.showMessageBoxSync).toHaveBeenCalledTimes(1);
    expect(dialog.showMessageBoxSync.mock.calls[0]?.[0]).toMatchObject({ buttons: ['OK'] });
  });
});
