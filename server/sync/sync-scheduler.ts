import { EventEmitter } from 'node:events';
import { readRemoteTenant } from '../organizations/manage-organizations.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { SyncProgress, SyncState, SyncStatus } from '../../contracts/console/sync.js';
import { SyncFailedError } from './sync-errors.js';
import { type SyncReport, syncOrganization } from './sync-organization.js';
import { pauseSyncs } from './sync-settings.js';
import type { SyncPolicy } from './sync-policy.js';

/** How the scheduler runs. */
export interface SyncSchedulerOptions {
  store: Store;
  sealer: Sealer;
  /** How often every replica syncs in the background; default 15 minutes. */
  intervalMs?: number;
  policy?: Partial<SyncPolicy>;
  /** Where background failures are told; they are recorded in the store too. */
  log?: (message: string) => void;
}


/** What {@link SyncScheduler} emits. */
export interface SyncSchedulerEvents {
  progress: [SyncProgress];
  finished: [SyncReport];
  failed: [{ org: string; error: string }];
  /** A replica was disconnected (through {@link SyncScheduler.disconnect}). */
  disconnected: [{ org: string }];
}

/** The product's background interval. */
export const defaultSyncIntervalMs = 15 * 60_000;

/**
 * Runs the syncs of replicas: at most one per organization at a time (a second request joins
 * the running one), every replica on an interval, and on demand. A replica's reconcile runs on
 * its own interval (a setting, daily by default) as the sync of the interval that finds it due
 * (sync-organization.ts).
 */
export class SyncScheduler extends EventEmitter<SyncSchedulerEvents> {
  private readonly running = new Map<string, Promise<SyncReport>>();
  private readonly progress = new Map<string, SyncProgress>();
  private readonly cancels = new Map<string, AbortController>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SyncSchedulerOptions) {
    super();
  }

  /**
   * Starts the background interval, and syncs at once the replicas whose last attempt is older
   * than one interval (the app was closed meanwhile). First it collects what an earlier process
   * left behind (a sync interrupted with it, a removal not finished), in the background.
   */
  start(): void {
    if (this.timer || this.abort.signal.aborted) return;
    this.collect();
    const interval = this.options.intervalMs ?? defaultSyncIntervalMs;
    this.timer = setInterval(() => void this.syncAll(), interval);
    this.timer.unref();
    void this.syncAll((state) => state.lastAttemptAt === null || Date.now() - Date.parse(state.lastAttemptAt) >= interval);
  }

  /**
   * Stops the interval, interrupts running syncs (their replicas stay as they were) and waits
   * for them. A stopped scheduler stays stopped.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.abort.abort(new SyncFailedError('The sync was interrupted: the server is stopping'));
    await Promise.allSettled(this.running.values());
  }

  /** Whether a sync of the organization runs now. */
  isRunning(slug: string): boolean {
    return this.running.has(slug);
  }

  /**
   * Syncs one replica now (`full` or `reconcile` asks for that kind); when its sync already
   * runs, returns that one's outcome. Rejects with {@link SyncFailedError} saying why a sync failed.
   */
  syncNow(slug: string, options: { full?: boolean; reconcile?: boolean } = {}): Promise<SyncReport> {
    const existing = this.running.get(slug);
    if (existing) return existing;
    const cancel = new AbortController();
    this.cancels.set(slug, cancel);
    const signal = AbortSignal.any([this.abort.signal, cancel.signal]);
    const promise = this.run(slug, options, signal, (progress) => {
      this.progress.set(slug, progress);
      this.emit('progress', progress);
    }).finally(() => {
      this.running.delete(slug);
      this.progress.delete(slug);
      this.cancels.delete(slug);
      // The inventory a full sync replaced, or what a failed one staged; the next start does it
      // when the scheduler stops.
      if (!this.abort.signal.aborted) this.collect();
    });
    this.running.set(slug, promise);
    return promise;
  }

  /**
   * Disconnects a replica: interrupts its running sync, if any (and one asked for meanwhile),
   * then calls `remove` once none runs, so that no sync writes after the removal, and tells
   * the listeners.
   */
  async disconnect(slug: string, remove: () => void): Promise<void> {
    for (let running = this.running.get(slug); running; running = this.running.get(slug)) {
      this.cancels.get(slug)?.abort(new SyncFailedError('The sync was interrupted: the organization is being disconnected'));
      await running.catch(() => undefined);
    }
    remove();
    this.collect();
    this.emit('disconnected', { org: slug });
  }

  /**
   * Pauses (or resumes) a replica's background syncs; pausing interrupts its running sync, if
   * any, and waits for it to end, so that a failing or hostile remote is left alone at once.
   */
  async setPaused(organization: Organization, paused: boolean): Promise<void> {
    pauseSyncs(this.options.store, organization, paused);
    const running = this.running.get(organization.slug);
    if (!paused || !running) return;
    this.cancels.get(organization.slug)?.abort(new SyncFailedError('The sync was interrupted: its syncs were paused'));
    await running.catch(() => undefined);
  }

  /** Syncs every replica (that `due` accepts) whose syncs are not paused, one after another; failures are recorded and emitted, not thrown. */
  async syncAll(due: (state: SyncState) => boolean = () => true): Promise<void> {
    const { store } = this.options;
    for (const organization of store.organizations.list()) {
      if (organization.kind !== 'replica' || this.abort.signal.aborted) continue;
      const state = store.sync.get(organization.rowId);
      if (state.paused || !due(state)) continue;
      await this.syncNow(organization.slug).catch(() => undefined);
    }
  }

  /** The sync status of a replica with its latest recorded changes, or undefined when there is no such organization. */
  status(slug: string): SyncStatus | undefined {
    const organization = this.options.store.organizations.bySlug(slug);
    if (!organization) return undefined;
    return {
      org: slug,
      running: this.running.has(slug),
      progress: this.progress.get(slug) ?? null,
      state: this.options.store.sync.get(organization.rowId),
      latestChanges: this.options.store.syncChanges.latest(organization.rowId),
    };
  }

  private async run(slug: string, kind: { full?: boolean; reconcile?: boolean }, signal: AbortSignal, onProgress: (progress: SyncProgress) => void): Promise<SyncReport> {
    const { store, sealer } = this.options;
    try {
      const organization = this.replica(slug);
      const remote = readRemoteTenant(store, sealer, organization);
      if (!remote) throw new SyncFailedError(`"${slug}" has no remote tenant connected`);
      const report = await syncOrganization(store, organization, remote, { full: kind.full, reconcile: kind.reconcile, policy: this.options.policy, signal, onProgress });
      this.emit('finished', report);
      return report;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log?.(`Sync of "${slug}" failed: ${message}`);
      this.emit('failed', { org: slug, error: message });
      throw error;
    }
  }

  /**
   * Deletes, in the background, the inventories nobody points at (store/inventories.ts): a
   * chunk per write, so that requests keep being answered.
   */
  private collect(): void {
    this.options.store.inventories.collect().catch((error: unknown) => {
      this.options.log?.(`Collecting replaced inventories failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private replica(slug: string): Organization {
    const organization = this.options.store.organizations.bySlug(slug);
    if (!organization) throw new SyncFailedError(`No organization with slug "${slug}"`);
    if (organization.kind !== 'replica') throw new SyncFailedError(`"${slug}" is a local organization, not a replica of a remote tenant`);
    return organization;
  }
}
