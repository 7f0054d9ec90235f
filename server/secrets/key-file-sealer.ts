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

/**
 * The 32-byte key in `keyFile`, created (readable only by its owner) when there is none. A key
 * file that is a symlink, not this user's, or open to other users is refused, never used: it
 * may have been put there by another local user, who would then know the key.
 */
export function readOrCreateKey(keyFile: string): Buffer {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink at the name fails (ELOOP) rather than being read through (none on Windows).
    fd = fs.openSync(keyFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ELOOP') throw new Error(`The key file ${keyFile} is a symbolic link: a key is read only from a file of its own. Remove the link.`, { cause: error });
    if (code !== 'ENOENT') throw error;
    const key = crypto.randomBytes(32);
    // Exclusively, 0600 set on the open file: a file or symlink planted at the name fails this, never takes the key.
    createFileExclusively(keyFile, key, 0o600);
    return key;
  }
  try {
    const problem = ownershipProblem(fs.fstatSync(fd));
    if (problem) {
      throw new Error(`The key file ${keyFile} ${problem}: another user could know the key, so it is not used. If the file is yours, make it so ("chmod 600"); otherwise remove it.`);
    }
    const key = fs.readFileSync(fd);
    if (key.length !== 32) throw new Error(`The sealing key ${keyFile} is damaged (expected 32 bytes)`);
    return key;
  } finally {
    fs.closeSync(fd);
  }
}

/** What makes a key file unsafe to use: another owner, or permissions for group or others; undefined when it is this user's alone (always on Windows, where modes say nothing). */
function ownershipProblem(stat: fs.Stats): string | undefined {
  if (process.platform === 'win32' || process.getuid === undefined) return undefined;
  if (stat.uid !== process.getuid()) return `belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o077) !== 0) return `can be read or written by other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}
