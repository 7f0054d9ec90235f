import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { syncChangesPath } from '../../../contracts/console/views';
import type { ConsoleOrganization } from '../../../contracts/console/organizations';
import type { SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';
import { organizationsQuery, syncOverviewQuery } from '../api/console-queries';
import { useConnectOrganization, useDisconnectOrganization, useStartSync } from '../api/organization-mutations';
import { ConnectOrganizationForm } from '../components/connect-organization-form';
import { EditOrganizationForm } from '../components/edit-organization-form';
import { QueryError, QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { SyncErrorText } from '../components/sync-error-text';
import { SyncProgress } from '../components/sync-progress';
import { ReconcileIntervalForm, ReconcileStatus } from '../components/reconcile-status';
import { useReconcileNow, useSetSyncPaused } from '../api/sync-mutations';
import { formatDateTime } from '../lib/format';
import { syncStateWord } from '../lib/sync-status';
import '../styles/organizations.css';

/**
 * Every organization of the store: connect a remote tenant; per replica its sync (status, last
 * success, when it was last reconciled and matched its remote, last error, progress while it
 * runs), sync now, full sync, reconcile now (and how often), disconnect.
 */
export function OrganizationsView({ slug }: { slug: string }) {
  const organizations = useQuery(organizationsQuery());
  const overview = useQuery(syncOverviewQuery());
  const connect = useConnectOrganization();
  const connected = connect.data;

  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Organizations</h1>
      </header>
      <p className="hint">
        Local organizations keep their data here. A replica copies a remote tenant through its v1 API: it syncs in the background every 15
        minutes, and on demand. Once a day (or as often as its setting says), and whenever a sync finds its totals differ from the remote's,
        it is reconciled: compared with the whole remote item by item, and only the differences written.
      </p>
      <ConnectOrganizationForm connect={connect} />
      {connected ? (
        <p className="notice" role="status">
          Connected “{connected.name}” ({connected.slug}); {firstSyncSentence(overview.data?.find((status) => status.org === connected.slug))}
        </p>
      ) : null}
      <h2>Organizations and their sync</h2>
      <QueryFrame query={organizations} what="organizations">
        {(data) => (
          <>
            {overview.isError ? <QueryError error={overview.error} onRetry={() => void overview.refetch()} /> : null}
            {data.some((o) => o.kind === 'replica') ? null : (
              <p className="state" data-testid="no-replicas">
                No remote tenant is connected yet: connect one above.
              </p>
            )}
            <OrganizationsTable organizations={data} statuses={overview.data} currentSlug={slug} />
          </>
        )}
      </QueryFrame>
    </section>
  );
}

/**
 * A URL that a narrow cell may break after a slash, or after a dot before a letter (between a
 * host name's labels), and nowhere else: never inside an IP address, a label or the port.
 */
function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=\/)|(?<=\.)(?=[a-z])/i);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** Where the first sync of a replica just connected stands: it starts at once, then ends or fails (the table says why). */
function firstSyncSentence(status: ConsoleSyncStatus | undefined): string {
  if (!status || status.running || (!status.state.lastSuccessAt && !status.state.lastError)) return 'its first sync has started.';
  return status.state.lastSuccessAt ? 'its first sync is done.' : 'its first sync failed: the table below says why.';
}

function OrganizationsTable({
  organizations,
  statuses,
  currentSlug,
}: {
  organizations: ConsoleOrganization[];
  statuses: ConsoleSyncStatus[] | undefined;
  currentSlug: string;
}) {
  const startSync = useStartSync();
  const reconcileNow = useReconcileNow();
  const setPaused = useSetSyncPaused();
  const disconnect = useDisconnectOrganization();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<ConsoleOrganization | undefined>(undefined);
  const edited = organizations.find((organization) => organization.slug === editing);
  const statusOf = (slug: string) => statuses?.find((status) => status.org === slug);

  const confirmDisconnect = (slug: string) =>
    disconnect.mutate(slug, {
      onSettled: () => setConfirming(undefined),
      // The view stays, in the frame of an organization that still exists.
      onSuccess: () => {
        if (slug === currentSlug) void navigate('/', { replace: true });
      },
    });

  return (
    <>
      {edited ? (
        <EditOrganizationForm
          key={edited.slug}
          organization={edited}
          onDone={(answer) => {
            setEditing(undefined);
            setSaved(answer);
          }}
        />
      ) : null}
      {saved && !edited ? (
        <p className="notice" role="status">
          Saved “{saved.name}” ({saved.slug}){saved.kind === 'replica' ? '; its data stays, and its next sync uses the new settings' : ''}.
        </p>
      ) : null}
      <table className="plain-table organizations-table">
        <caption className="visually-hidden">Organizations</caption>
        <TableHead columns={['Organization', 'Kind', 'Sync', 'Last success', 'Reconciled', 'Last error']} actions />
        <tbody>
          {organizations.map((organization) => {
            const status = statusOf(organization.slug);
            const word = status ? syncStateWord(status) : undefined;
            const replica = organization.kind === 'replica';
            return (
              <tr key={organization.slug} data-testid={`organization-${organization.slug}`}>
                <th scope="row">
                  {organization.name} <code>{organization.slug}</code>
                  {replica && organization.remoteUrl ? (
                    <div className="organizations-table__remote">
                      <BreakableUrl url={organization.remoteUrl} />
                    </div>
                  ) : null}
                </th>
                <td>
                  {organization.kind}
                  {organization.isDemo ? ' (demo)' : ''}
                </td>
                <td data-testid={`sync-state-${organization.slug}`}>
                  {!replica ? (
                    '—'
                  ) : !status ? (
                    '…'
                  ) : (
                    <>
                      <span className={`sync-word sync-word--${word}`}>{word}</span>
                      {status.running ? <SyncProgress slug={organization.slug} progress={status.progress} /> : null}
                      {status.state.paused ? (
                        <div className="organizations-table__paused" data-testid={`sync-paused-${organization.slug}`}>
                          Syncs paused: none runs at start or on the schedule
                        </div>
                      ) : null}
                    </>
                  )}
                </td>
                <td>
                  {replica ? (status?.state.lastSuccessAt ? formatDateTime(status.state.lastSuccessAt) : status ? 'Never' : '…') : '—'}
                  {replica ? (
                    <div>
                      <Link to={syncChangesPath(organization.slug)}>
                        Changes<span className="visually-hidden"> of {organization.slug}</span>
                      </Link>
                    </div>
                  ) : null}
                </td>
                <td>
                  {replica && status ? (
                    <>
                      <ReconcileStatus slug={organization.slug} state={status.state} />
                      <ReconcileIntervalForm slug={organization.slug} hours={status.state.reconcileIntervalHours} />
                    </>
                  ) : replica ? (
                    '…'
                  ) : (
                    '—'
                  )}
                </td>
                <td className={replica && status?.state.lastError ? 'organizations-table__error' : undefined} data-testid={`sync-error-${organization.slug}`}>
                  {replica && status ? <SyncErrorText state={status.state} /> : '—'}
                </td>
                <td>
                  <div className="organizations-table__buttons">
                    {replica ? (
                      confirming === organization.slug ? (
                        <>
                          {/* Keyed: a new element, so that it takes the focus when it appears. */}
                          <button key="confirm" type="button" className="danger" autoFocus onClick={() => confirmDisconnect(organization.slug)} disabled={disconnect.isPending}>
                            Confirm disconnect {organization.slug}
                          </button>{' '}
                          <button type="button" onClick={() => setConfirming(undefined)}>
                            Cancel
                          </button>
                        </>
                      ) : (
                        <>
                          <button
                            type="button"
                            disabled={status?.running}
                            onClick={() => startSync.mutate({ slug: organization.slug, full: false })}
                          >
                            Sync now<span className="visually-hidden"> {organization.slug}</span>
                          </button>{' '}
                          <button type="button" disabled={status?.running} onClick={() => startSync.mutate({ slug: organization.slug, full: true })}>
                            Full sync<span className="visually-hidden"> {organization.slug}</span>
                          </button>{' '}
                          <button type="button" disabled={status?.running} onClick={() => reconcileNow.mutate(organization.slug)}>
                            Reconcile now<span className="visually-hidden"> {organization.slug}</span>
                          </button>{' '}
                          <button
                            type="button"
                            disabled={!status || setPaused.isPending}
                            onClick={() => setPaused.mutate({ slug: organization.slug, paused: !status?.state.paused })}
                          >
                            {status?.state.paused ? 'Resume syncs' : 'Pause syncs'}
                            <span className="visually-hidden"> {organization.slug}</span>
                          </button>{' '}
                          <button type="button" onClick={() => setEditing(organization.slug)}>
                            Edit<span className="visually-hidden"> {organization.slug}</span>
                          </button>{' '}
                          <button type="button" onClick={() => setConfirming(organization.slug)}>
                            Disconnect<span className="visually-hidden"> {organization.slug}</span>
                          </button>
                        </>
                      )
                    ) : (
                      <button type="button" onClick={() => setEditing(organization.slug)}>
                        Edit<span className="visually-hidden"> {organization.slug}</span>
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {confirming ? (
        <p className="hint" role="status">
          Disconnecting “{confirming}” removes its replicated data and its remote key from this machine; the remote tenant is not changed.
        </p>
      ) : null}
      {startSync.isError ? <QueryError error={startSync.error} /> : null}
      {reconcileNow.isError ? <QueryError error={reconcileNow.error} /> : null}
      {setPaused.isError ? <QueryError error={setPaused.error} /> : null}
      {disconnect.isError ? <QueryError error={disconnect.error} /> : null}
    </>
  );
}
