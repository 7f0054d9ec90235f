import { safeStorage } from 'electron';
import type { SecretStorage } from '../../contracts/console/session.js';
import { type Sealer, sealedSecretFormat } from '../../server/secrets/sealer.js';

const safeStorageTag = sealedSecretFormat.desktopKeychain;

/**
 * Seals secrets with Electron's safeStorage, whose key the operating system keeps (Keychain,
 * DPAPI, libsecret/kwallet). Secrets sealed earlier by another sealer (the headless key file,
 * when the data directory was first used by `remediation-console serve`) are unsealed by
 * `earlierSealer`, made only when such a secret is met.
 *
 * Secrets sealed here can be unsealed only by this app: the headless CLI cannot reach
 * safeStorage's key.
 */
export function safeStorageSealer(options: { secretStorage: SecretStorage; earlierSealer: () => Sealer }): Sealer {
  return {
    secretStorage: options.secretStorage,
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
