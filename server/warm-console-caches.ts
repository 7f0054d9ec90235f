import { collectionBasics } from '../contracts/collection-basics.js';
import { collectionSchemas } from '../contracts/collections.js';
import type { Store } from './store/store.js';
import type { SyncScheduler } from './sync/sync-scheduler.js';

/** The query of the console's findings view as it opens. */
const defaultFindingsQuery = collectionSchemas.findings.console.parse(collectionBasics.findings.defaultView.query);

/** How long after start, or after a sync, the warm-up waits: the first answers come first. */
const settleMs = 2_000;

/**
 * Reads every organization's coverage columns, dashboard, exposure figures (the endpoints'
 * risk, the software view, the remediation plan), findings' timeline (deadlines, remediation
 * performance), fix-by dates (BOD 26-04 outcomes, the due counts) and the order the findings view opens on (open, riskiest first) while nobody
 * asks for them: a little after the server starts, and after each sync of a replica. Reading a million findings
 * takes seconds (in chunks that leave other requests answered); done ahead, the dashboard and
 * the coverage views open at once. Returns a function that stops it.
 */
export function warmConsoleCaches(store: Store, scheduler: SyncScheduler): () => void {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const warm = (slugs: string[]) => {
    const timer = setTimeout(async () => {
      timers.delete(timer);
      for (const slug of slugs) {
        const organization = store.organizations.bySlug(slug);
        if (stopped || !organization) continue;
        try {
          // Read after a sync that applies this organization's changes in parts has written its last,
          // never half applied: what the warm-up computes it may also record (a what-if's comparison).
          await store.syncSteps.whenApplied(organization.rowId);
          if (stopped) continue;
          await store.dashboards.dashboard(organization.rowId);
          await store.software.plan(organization.rowId);
          await store.deadlines.performance(organization.rowId);
          await store.fixBy.columns(organization.rowId);
          // A what-if whose comparison a shutdown cut short: compared and recorded now, from what it kept.
          await store.fixBy.completePending(organization.rowId);
          await store.console.listIds(organization.rowId, 'findings', defaultFindingsQuery);
        } catch {
          // A request that asks later computes it, and reports what fails.
        }
      }
    }, settleMs);
    timers.add(timer);
  };
  const onFinished = ({ org }: { org: string }) => warm([org]);
  scheduler.on('finished', onFinished);
  warm(store.organizations.list().map((organization) => organization.slug));
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    scheduler.off('finished', onFinished);
  };
}
