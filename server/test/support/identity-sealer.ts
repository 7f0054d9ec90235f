import type { Sealer } from '../../secrets/sealer.js';

/** A sealer for tests where nothing secret is ever sealed or unsealed: it changes nothing. */
export const identitySealer: Sealer = {
  secretStorage: { protection: 'plain-text', keychainAvailable: null, description: 'Test: secrets are not sealed.' },
  seal: (plain) => plain,
  unseal: (sealed) => sealed,
};
