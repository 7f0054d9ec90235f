import { useEndSession } from '../api/session-mutations';
import { desktopBridge } from '../desktop-bridge';

/**
 * Signs this browser out of the console. Not in the desktop app, whose window holds its token
 * over the bridge and has no session to end.
 */
export function SignOutButton() {
  const endSession = useEndSession();
  if (desktopBridge()) return null;
  return (
    <span className="topbar__sign-out">
      <button type="button" onClick={() => endSession.mutate()} disabled={endSession.isPending}>
        Sign out
      </button>
      {endSession.isError ? <span role="alert">{endSession.error.message}</span> : null}
    </span>
  );
}
