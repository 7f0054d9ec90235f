import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { syncChangesPath } from '../../../contracts/console/views';
import { organizationsQuery, syncOverviewQuery } from '../api/console-queries';
import { formatCounted, formatDateTime } from '../lib/format';
import { newlyOpenBreakdown } from '../lib/newly-open-breakdown';
import { markSeen, seenKey, useSeenSyncChanges } from '../lib/seen-sync-changes';
import '../styles/sync-changes.css';

/**
 * Above every view: per replica whose latest recorded sync brought findings newly open critical
 * or KEV that the user has not seen, what it brought, a link to that sync's changes and a
 * Dismiss button. The desktop app shows it too, beside its notification: a notification goes
 * by (or is turned off, or silenced by the system); this stays until seen.
 */
export function SyncAlertBanner() {
  const overview = useQuery(syncOverviewQuery());
  const organizations = useQuery(organizationsQuery());
  const seen = useSeenSyncChanges();
  const alerts = (overview.data ?? []).flatMap(({ org, latestChanges }) =>
    latestChanges && latestChanges.newlyOpen.total > 0 && !seen.includes(seenKey(org, latestChanges)) ? [{ org, changes: latestChanges }] : [],
  );
  return (
    // Always there, so that a screen reader announces the alerts that appear in it.
    <div className="sync-alerts" aria-live="polite">
      {alerts.map(({ org, changes }) => {
        const name = organizations.data?.find((organization) => organization.slug === org)?.name ?? org;
        const { total } = changes.newlyOpen;
        return (
          <div key={org} className="sync-alert" data-testid={`sync-alert-${org}`}>
            <p className="sync-alert__text">
              <strong>
                {formatCounted(total, 'new critical or KEV finding')} in {name}
              </strong>{' '}
              ({newlyOpenBreakdown(changes.newlyOpen, "in CISA's KEV catalog")}), found by its sync of {formatDateTime(changes.finishedAt)}.
            </p>
            <Link to={syncChangesPath(org, changes.id)} onClick={() => markSeen(seenKey(org, changes))}>
              See what the sync changed
            </Link>
            <button type="button" onClick={() => markSeen(seenKey(org, changes))}>
              Dismiss<span className="visually-hidden"> the news of {name}</span>
            </button>
          </div>
        );
      })}
    </div>
  );
}
