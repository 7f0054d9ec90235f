import { safeStorage } from 'electron';
import type { Sealer } from '../../server/secrets/sealer.js';

// The first byte of a secret sealed here. The key-file sealer's secrets start with its format
// version (1), so the two kinds can sit side by side in one database and each is unsealed by
// the sealer that made it.
const safeStorageTag = 0xe1;

/**
 * Seals secrets with Electron's safeStorage, whose key the operating system keeps (Keychain,
 * DPAPI, libsecret/kwallet). Secrets sealed earlier by another sealer (the headless key file,
 * when the data directory was first used by `remediation-console serve`) are unsealed by
 * `earlierSealer`, made only when such a secret is met.
 *
 * Secrets sealed here can be unsealed only by this app: the headless CLI cannot reach
 * safeStorage's key.
 */
export function safeStorageSealer(options: { kind: string; earlierSealer: () => Sealer }): Sealer {
  return {
    kind: options.kind,
    seal(plain) {
      // safeStorage seals strings; base64 keeps binary secrets (signing keys) intact.
      return Buffer.concat([Buffer.from([safeStorageTag]), safeStorage.encryptString(plain.toString('base64'))]);
    },
    unseal(sealed) {
      if (sealed[0] !== safeStorageTag) return options.earlierSealer().unseal(sealed);
      return Buffer.from(safeStorage.decryptString(sealed.subarray(1)), 'base64');
    },
  };
}
