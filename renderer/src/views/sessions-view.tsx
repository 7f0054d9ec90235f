import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConsoleCredential } from '../../../contracts/console/session';
import { sessionsQuery } from '../api/console-queries';
import { useRevokeSession, useSignOutOtherSessions } from '../api/session-mutations';
import { ConfirmedAction } from '../components/confirmed-action';
import { QueryError, QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { desktopBridge } from '../desktop-bridge';
import { formatCounted, formatDateTime } from '../lib/format';
import { CliCommandText } from '../components/cli-command-text';

/** What a row is called: a script token by its name, a browser session by the browser that opened it. */
const whatItIs = (credential: ConsoleCredential) => (credential.kind === 'script' ? (credential.name ?? 'Script token') : (credential.userAgent ?? 'A browser'));

/**
 * The data directory's browser sessions and script tokens: when each was made, last used and
 * ends, this browser's marked; revoke one, or sign out every other browser session.
 */
export function SessionsView() {
  const sessions = useQuery(sessionsQuery());
  const revoke = useRevokeSession();
  const signOutOthers = useSignOutOtherSessions();
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const inDesktopApp = Boolean(desktopBridge());
  const others = sessions.data?.filter((session) => session.kind === 'browser' && !session.current).length ?? 0;

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Sessions</h1>
      </header>
      <p className="hint">
        Browsers signed in to this console with a console link, and the tokens scripts use (made with{' '}
        <CliCommandText args="sessions create-script-token --name NAME" />). A browser session ends after 30 days, or 7 days unused; revoking one
        ends it everywhere.
      </p>
      <p className="inline-form">
        <button type="button" onClick={() => signOutOthers.mutate()} disabled={signOutOthers.isPending || others === 0}>
          {inDesktopApp ? 'Sign out all browser sessions' : 'Sign out all other sessions'}
        </button>
        {signOutOthers.data ? (
          <span role="status">
            Signed out {formatCounted(signOutOthers.data.revoked, 'session')}.
          </span>
        ) : null}
      </p>
      {signOutOthers.isError ? <QueryError error={signOutOthers.error} /> : null}
      <QueryFrame query={sessions} what="sessions" empty={(data) => data.length === 0 && 'No browser sessions or script tokens.'}>
        {(data) => (
          <table className="plain-table">
            <caption className="visually-hidden">Sessions and script tokens</caption>
            <TableHead columns={['Kind', 'Browser or name', 'Created', 'Last used', 'Ends unless used']} actions />
            <tbody>
              {data.map((session) => (
                <tr key={session.id} aria-current={session.current ? 'true' : undefined}>
                  <td>
                    {session.kind === 'script' ? 'Script token' : 'Browser'}
                    {session.current ? <span className="badge"> This {session.kind === 'script' ? 'script' : 'browser'}</span> : null}
                  </td>
                  <td className="sessions__what">{whatItIs(session)}</td>
                  <td>{formatDateTime(session.createdAt)}</td>
                  <td>{formatDateTime(session.lastUsedAt)}</td>
                  <td>{formatDateTime(session.expiresAt)}</td>
                  <td>
                    <ConfirmedAction
                      confirming={confirming === session.id}
                      label={session.current ? 'Sign out' : 'Revoke'}
                      hiddenName={`${whatItIs(session)}, created ${formatDateTime(session.createdAt)}`}
                      confirmLabel={session.current ? 'Confirm sign out' : 'Confirm revoke'}
                      onAsk={() => setConfirming(session.id)}
                      onCancel={() => setConfirming(undefined)}
                      onConfirm={() => revoke.mutate(session, { onSettled: () => setConfirming(undefined) })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryFrame>
      {revoke.isError ? <QueryError error={revoke.error} /> : null}
    </section>
  );
}
