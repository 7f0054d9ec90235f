import type { SecretStorage } from '../../contracts/console/session.js';

const secrets = 'Secrets (remote API keys, enrollment secrets, signing keys)';

/**
 * How secrets are stored, for each way the server and the desktop app seal them (DESIGN
 * section 4): what each sealer reports and the console shows. Worded here together so that
 * the four read as one set.
 */
export const secretStorages = {
  /** Headless (`serve`, the CLI): no keychain is involved. */
  headlessKeyFile: {
    protection: 'key-file',
    keychainAvailable: null,
    description: `${secrets} are sealed with a key file in the data folder, readable only by your user account.`,
  },
  /** The desktop app with a system keychain: safeStorage. */
  systemKeychain: {
    protection: 'system-keychain',
    keychainAvailable: true,
    description: `${secrets} are sealed with the system keychain.`,
  },
  /** The desktop app without a system keychain, by default. */
  keyFileWithoutKeychain: {
    protection: 'key-file',
    keychainAvailable: false,
    description: 'No system keychain is available: secrets are sealed with a key file in the data folder that only your user account can read.',
  },
  /** The desktop app without a system keychain, once the user agreed to plain text (safeStorage's basic_text). */
  plainTextWithoutKeychain: {
    protection: 'plain-text',
    keychainAvailable: false,
    description:
      'No system keychain is available and you chose to store secrets as plain text: anyone with a copy of the data folder can read them.',
  },
} as const satisfies Record<string, SecretStorage>;
