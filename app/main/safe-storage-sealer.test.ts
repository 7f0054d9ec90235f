import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sealer } from '../../server/secrets/sealer.js';
import { secretStorages } from '../../server/secrets/secret-storages.js';
import { resetFakeElectron, safeStorage } from '../test/fake-electron.js';
import { safeStorageSealer } from './safe-storage-sealer.js';

vi.mock('electron', () => import('../test/fake-electron.js'));

describe('safeStorageSealer', () => {
  beforeEach(() => resetFakeElectron());

  const earlier: Sealer = { secretStorage: secretStorages.headlessKeyFile, seal: (plain) => Buffer.concat([Buffer.from([1]), plain]), unseal: (sealed) => sealed.subarray(1) };

  it('round-trips binary secrets through safeStorage', () => {
    const sealer = safeStorageSealer({ secretStorage: secretStorages.systemKeychain, earlierSealer: () => earlier });
    const secret = Buffer.from([0, 255, 10, 13, 0xe1, 128]);
    const sealed = sealer.seal(secret);
    expect(sealed.includes(secret)).toBe(false);
    expect(sealer.unseal(sealed)).toEqual(secret);
    expect(safeStorage.decryptString).toHaveBeenCalled();
  });

  it('hands secrets of the earlier sealer to it, making it only then', () => {
    const makeEarlier = vi.fn(() => earlier);
    const sealer = safeStorageSealer({ secretStorage: secretStorages.systemKeychain, earlierSealer: makeEarlier });
    sealer.unseal(sealer.seal(Buffer.from('x')));
    expect(makeEarlier).not.toHaveBeenCalled();
    expect(sealer.unseal(earlier.seal(Buffer.from('old')))).toEqual(Buffer.from('old'));
    expect(makeEarlier).toHaveBeenCalledTimes(1);
  });

  it("reports the protection it was made for, not the earlier sealer's", () => {
    const plainText = safeStorageSealer({ secretStorage: secretStorages.plainTextWithoutKeychain, earlierSealer: () => earlier });
    expect(plainText.secretStorage).toMatchObject({ protection: 'plain-text', keychainAvailable: false });
    const keychain = safeStorageSealer({ secretStorage: secretStorages.systemKeychain, earlierSealer: () => earlier });
    expect(keychain.secretStorage).toMatchObject({ protection: 'system-keychain', keychainAvailable: true });
  });
});
