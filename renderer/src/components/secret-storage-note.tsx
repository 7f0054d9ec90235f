import { useQuery } from '@tanstack/react-query';
import { secretStorageQuery } from '../api/console-queries';

/**
 * How the secrets the user hands over here are sealed at rest, as the server says: a quiet note
 * with a system keychain or headless; a warning where the desktop app found no keychain, since
 * the protection is then weaker than the user may assume. Nothing while the session loads, or
 * where the server stores no secret.
 */
export function SecretStorageNote() {
  const { data: storage } = useQuery(secretStorageQuery());
  if (!storage) return null;
  const warning = storage.keychainAvailable === false;
  return (
    <p className={warning ? 'notice notice--warning' : 'hint'} role="note" data-testid="secret-storage">
      {warning ? <strong>Warning: </strong> : null}
      {storage.description}
    </p>
  );
}
