import type { SecretStorage } from '../../contracts/console/session.js';

/** Seals secrets at rest: remote API keys, enrollment secrets, signing keys (DESIGN section 4). */
export interface Sealer {
  /** How this sealer protects secrets, as `GET /app/session` tells the console (one of `secretStorages`). */
  readonly secretStorage: SecretStorage;
  seal(plain: Buffer): Buffer;
  unseal(sealed: Buffer): Buffer;
}

/**
 * The first byte of a sealed secret says which sealer made it, so that secrets of several kinds
 * can sit side by side in one database and each is unsealed by the sealer that made it.
 */
export const sealedSecretFormat = {
  /** The headless key-file sealer (AES-256-GCM), format version 1. */
  keyFile: 0x01,
  /** The desktop app's Electron safeStorage (the operating system's keychain). */
  desktopKeychain: 0xe1,
} as const;
