import { dialog, safeStorage } from 'electron';
import { keyFileSealer } from '../../server/secrets/key-file-sealer.js';
import type { Sealer } from '../../server/secrets/sealer.js';
import { secretStorages } from '../../server/secrets/secret-storages.js';
import { dataDirectoryFiles } from '../../server/store/engine/data-directory.js';
import { readDesktopSettings, type SecretSealingChoice, updateDesktopSettings } from './desktop-settings.js';
import { safeStorageSealer } from './safe-storage-sealer.js';

/**
 * The sealer of the desktop app (DESIGN section 4), for `startConsoleServerWorker`, which calls
 * it in the main process once the server's thread holds the data-directory lock: so the choice
 * below is written by the one process that owns the directory. It seals and unseals here, for
 * the server's thread, over their channel.
 *
 * With a system keychain, safeStorage. Without one (no keyring on Linux, where safeStorage
 * falls back to `basic_text`, a fixed key compiled into Chromium, that is plain text in all but
 * name; or no safeStorage at all), the user is told once and the answer kept:
 * - by default the headless key-file sealer: AES-256-GCM with a random key in an owner-only file
 *   beside the database. It protects as much as the owner-only data directory does, and a copy
 *   of the database alone reveals nothing, which basic_text cannot say;
 * - basic_text only if the user agrees to it.
 *
 * The sealer's `secretStorage` says which of these it is, and the console shows it.
 */
export function chooseSealer(dataDir: string): Sealer {
  const { sealingKey } = dataDirectoryFiles(dataDir);
  let keyFile: Sealer | undefined;
  const earlierSealer = () => (keyFile ??= keyFileSealer(sealingKey));
  const protection = keychainProtection();
  if (protection === 'keychain') return safeStorageSealer({ secretStorage: secretStorages.systemKeychain, earlierSealer });

  let choice = readDesktopSettings(dataDir).secretSealing;
  if (!choice) {
    choice = askHowToSeal(protection);
    updateDesktopSettings(dataDir, { secretSealing: choice });
  }
  if (choice === 'basic-text' && protection === 'basic-text') {
    return safeStorageSealer({ secretStorage: secretStorages.plainTextWithoutKeychain, earlierSealer });
  }
  // The console warns that there is no keychain, which the headless key-file sealer does not.
  return keyFileSealer(sealingKey, secretStorages.keyFileWithoutKeychain);
}

type KeychainProtection = 'keychain' | 'basic-text' | 'none';

function keychainProtection(): KeychainProtection {
  if (!safeStorage.isEncryptionAvailable()) return 'none';
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return 'basic-text';
  return 'keychain';
}

const keyFileExplanation =
  'Remote API keys, enrollment secrets and signing keys will be sealed with a key file in the data folder ' +
  'that only your user account can read, as the command-line server does.';

function askHowToSeal(protection: Exclude<KeychainProtection, 'keychain'>): SecretSealingChoice {
  const title = 'No system keychain';
  if (protection === 'none') {
    dialog.showMessageBoxSync({
      type: 'warning',
      title,
      message: 'Secrets cannot be protected by a system keychain on this computer.',
      detail: keyFileExplanation,
      buttons: ['OK'],
    });
    return 'key-file';
  }
  const answer = dialog.showMessageBoxSync({
    type: 'warning',
    title,
    message: 'No system keychain (such as GNOME Keyring or KWallet) is available.',
    detail:
      `${keyFileExplanation}\n\nElectron's own fallback stores secrets with a fixed, publicly known key: ` +
      'anyone with a copy of the database can read them. Use it only if you accept that.',
    buttons: ['Use a key file (recommended)', 'Store secrets as plain text'],
    defaultId: 0,
    cancelId: 0,
  });
  return answer === 1 ? 'basic-text' : 'key-file';
}
