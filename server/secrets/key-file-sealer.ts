import crypto from 'node:crypto';
import fs from 'node:fs';
import type { SecretStorage } from '../../contracts/console/session.js';
import { createFileExclusively } from '../store/engine/data-directory.js';
import { type Sealer, sealedSecretFormat } from './sealer.js';
import { secretStorages } from './secret-storages.js';

const formatVersion = sealedSecretFormat.keyFile;

/**
 * The headless sealer: AES-256-GCM with a random key kept in a file only its owner may read,
 * created on first use. The desktop app uses it too where there is no system keychain, and says
 * so with `secretStorage`.
 */
export function keyFileSealer(keyFile: string, secretStorage: SecretStorage = secretStorages.headlessKeyFile): Sealer {
  const key = readOrCreateKey(keyFile);
  return {
    secretStorage,
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([formatVersion]), iv, cipher.getAuthTag(), body]);
    },
    unseal(sealed) {
      if (sealed[0] === sealedSecretFormat.desktopKeychain) {
        throw new Error(
          "This secret was sealed by the desktop app with the operating system's keychain, which only the desktop app " +
            'can read: do this from the desktop app',
        );
      }
      if (sealed[0] !== formatVersion) throw new Error('Unknown sealed-secret format');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
      decipher.setAuthTag(sealed.subarray(13, 29));
      return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
    },
  };
}

/** The 32-byte key in `keyFile`, created (readable only by its owner) when there is none. */
export function readOrCreateKey(keyFile: string): Buffer {
  try {
    const key = fs.readFileSync(keyFile);
    if (key.length !== 32) throw new Error(`The sealing key ${keyFile} is damaged (expected 32 bytes)`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = crypto.randomBytes(32);
    // Exclusively, 0600 set on the open file: a file or symlink planted at the name fails this, never takes the key.
    createFileExclusively(keyFile, key, 0o600);
    return key;
  }
}
