import { useState } from 'react';
import type { SyncStatus as ConsoleSyncStatus } from '../../../contracts/console/sync';
import { maxReconcileIntervalHours, syncCountChecks } from '../../../contracts/console/sync-basics';
import { useUpdateSyncSettings } from '../api/sync-mutations';
import { formatCount, formatCounted, formatDateTime } from '../lib/format';
import { QueryError } from './query-state';
import '../styles/reconcile.css';

/**
 * Whether a replica is known to match its remote: when it was last reconciled (compared with
 * the whole remote) and what that found, when it last matched (a reconcile, or totals that
 * matched after a sync), and the totals that differ now, if any.
 */
export function ReconcileStatus({ slug, state }: { slug: string; state: ConsoleSyncStatus['state'] }) {
  const changed = state.lastReconcileChanged;
  return (
    <div className="reconcile-status" data-testid={`reconcile-${slug}`}>
      <div>
        Reconciled: {state.lastReconciledAt ? formatDateTime(state.lastReconciledAt) : 'not yet'}
        {state.lastReconciledAt && changed !== null ? (
          <span className="reconcile-status__found">{changed === 0 ? ' (no difference)' : ` (${formatCounted(changed, 'difference')} fixed)`}</span>
        ) : null}
      </div>
      <div>Matched its remote: {state.lastMatchedAt ? formatDateTime(state.lastMatchedAt) : 'not yet'}</div>
      {state.countDifferences.length > 0 ? (
        <div className="reconcile-status__differs" role="status">
          Differs from its remote:{' '}
          {state.countDifferences
            .map((difference) => `${syncCountChecks.find((check) => check.id === difference.check)?.label ?? difference.check} ${formatCount(difference.replica)} here, ${formatCount(difference.remote)} there`)
            .join('; ')}
          . A reconcile is due.
        </div>
      ) : null}
    </div>
  );
}

/** A replica's reconcile interval in hours, saved on submit; the server refuses what is out of range and says why. */
export function ReconcileIntervalForm({ slug, hours }: { slug: string; hours: number }) {
  const update = useUpdateSyncSettings();
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const value = typed ?? String(hours);
  return (
    <form
      className="reconcile-interval"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({ slug, settings: { reconcileIntervalHours: Number(value) } }, { onSuccess: () => setTyped(undefined) });
      }}
    >
      <label>
        Reconcile every{' '}
        <input
          type="number"
          min={1}
          max={maxReconcileIntervalHours}
          step={1}
          value={value}
          onChange={(event) => setTyped(event.target.value)}
          aria-label={`Reconcile interval of ${slug} in hours`}
        />{' '}
        hours
      </label>{' '}
      <button type="submit" disabled={update.isPending || typed === undefined}>
        Save<span className="visually-hidden"> the reconcile interval of {slug}</span>
      </button>
      {update.isError ? <QueryError error={update.error} /> : null}
    </form>
  );
}
