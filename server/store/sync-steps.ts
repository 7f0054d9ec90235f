import type { CollectionName } from '../../contracts/collections.js';
import type { SyncSettings } from '../../contracts/console/sync.js';
import type { SyncChangesSummary } from '../../contracts/console/sync-changes.js';
import type { SyncMode } from '../../contracts/enums.js';
import type { Inventory } from '../../contracts/inventory.js';
import type { ChangeKind } from './derived/change-kinds.js';
import type { AppendOutcome, InventoryWrites } from './inventory/inventory-writes.js';
import { SyncChangeTally } from './basics/change-tally.js';
import type { Organization, OrganizationRecords } from './records/organization-records.js';
import type { SyncChangeRecords } from './records/sync-change-records.js';
import type { CountCheckOutcome, SyncRecords, SyncSuccess } from './records/sync-run-records.js';

/**
 * When a step's write reaches the disk (engine/README.md):
 * - `held`: its pages are held in memory and logged with the next write that is not held, without
 *   an fsync of their own; a crash may lose it, with the writes after it, never one before;
 * - `settled`: committed at once (readers see it), and resolved once its pages, and those held
 *   before it, are logged and fsynced in the thread pool; a crash before then loses it as a held one;
 * - `on-thread`: logged and fsynced before the call returns.
 */
export type StepDurability = 'held' | 'settled' | 'on-thread';

/** What one step writes: the kinds of change it makes (derived/change-kinds.ts), and when it reaches the disk. */
export interface StepWrite {
  changes: readonly ChangeKind[];
  durability: StepDurability;
  /** Log what held writes left, a slice per turn, before the step's own write: a bulk job's last step. */
  settleFirst?: boolean;
  /**
   * Logged as its pages, never its statements (Store.write `asPages`): a full sync's staging
   * writes a whole inventory, whose statements piece after piece would be about as many bytes
   * as its pages and take past the replay budget, folding all the same.
   */
  asPages?: boolean;
}

/**
 * The writes of a replica's syncs, by step: the one place that says what each changes and how
 * durable it is, so that the sync (server/sync) names neither. A full sync's staged pages are
 * `held` (a crash loses a staging, which the next sync does again), and so are the parts of a
 * merge in parts but the last (a crash keeps a prefix of them), and those of a replacement in
 * place, logged as pages as a staging is (it rewrites as much); the write that ends a sync
 * (its swap, merge or record) is `settled`, its fsync off the thread that answers requests; a
 * failure's record and the user's settings are small writes fsynced `on-thread`.
 */
export const syncStepWrites = {
  stage: { changes: ['staged-inventory'], durability: 'held', asPages: true },
  swap: { changes: ['inventory', 'organizations', 'sync-records'], durability: 'settled', settleFirst: true },
  applyPart: { changes: ['inventory'], durability: 'held' },
  apply: { changes: ['inventory', 'sync-records'], durability: 'settled' },
  replacePart: { changes: ['inventory'], durability: 'held', asPages: true },
  replaceLast: { changes: ['inventory', 'sync-records'], durability: 'settled', settleFirst: true },
  recordUnchanged: { changes: ['sync-records'], durability: 'settled' },
  recordCountCheck: { changes: ['sync-records'], durability: 'settled' },
  recordFailure: { changes: ['sync-records'], durability: 'on-thread' },
  setPaused: { changes: ['sync-records'], durability: 'on-thread' },
  saveSettings: { changes: ['sync-records'], durability: 'on-thread' },
} as const satisfies Record<string, StepWrite>;

type Steps = typeof syncStepWrites;
/** The steps whose write has durability `D`. */
type StepsWith<D extends StepDurability> = { [S in keyof Steps]: Steps[S]['durability'] extends D ? S : never }[keyof Steps];

/** Changes a sync writes into the inventory the organization shows (`inventoryId`), counting them in `tally`; a throw rolls its transaction back. */
export type InventoryChange = (writes: InventoryWrites, inventoryId: number, tally: SyncChangeTally) => void;

/** Changes applied in parts as they come (SyncSteps.beginParts), counted in one tally. */
export interface PartsInProgress {
  /** Applies one part: its own transaction, a `held` write; answers what `change` answers. */
  part<T>(change: (writes: InventoryWrites, inventoryId: number, tally: SyncChangeTally) => T): T;
  /**
   * Applies `last` with the sync's success and what every part changed, in one settled write;
   * the readers are released once it has committed. Answers the changes recorded, in brief.
   */
  finish(success: SyncSuccess, last?: InventoryChange): Promise<SyncChangesSummary | undefined>;
  /** Releases the readers without a last write: the sync failed between two parts (a second call does nothing). */
  release(): void;
}

/** A step found its organization removed during the sync: its write rolled back. */
export class OrganizationRemovedError extends Error {
  constructor(slug: string) {
    super(`The organization "${slug}" was removed during the sync`);
    this.name = 'OrganizationRemovedError';
  }
}

/** What the steps write through: the store's writes (Store.write, writeSettled, settle), and the records they write. */
export interface SyncStepsWiring {
  write: <T>(work: (inventory: InventoryWrites) => T, options: { changes: readonly ChangeKind[]; durable?: boolean; asPages?: boolean }) => T;
  writeSettled: <T>(work: (inventory: InventoryWrites) => T, options: { changes: readonly ChangeKind[] }) => Promise<T>;
  settle: () => Promise<void>;
  organizations: OrganizationRecords;
  sync: SyncRecords;
  syncChanges: SyncChangeRecords;
}

/**
 * The named durable steps of a replica's sync (see {@link syncStepWrites}); each is one
 * transaction: all of it or none (a merge in parts is one such step per part). The steps that write to an organization's data or sync state
 * check, inside their transaction, that it was not removed meanwhile.
 */
export class SyncSteps {
  /** The organizations (by row id) whose sync applies its changes in parts now: each entry resolves when that ends, applied or not. */
  private readonly applying = new Map<number, Promise<void>>();

  constructor(private readonly wiring: SyncStepsWiring) {}

  /**
   * While a sync of the organization applies its changes in parts ({@link applyInParts}), a promise
   * that resolves once it has ended, applied or failed; otherwise undefined. A reader of the
   * organization's data waits on it, so that it never reads a change half applied.
   */
  whenApplied(orgRowId: number): Promise<void> | undefined {
    return this.applying.get(orgRowId);
  }

  /** Appends a page (or a few) of a collection to a staged inventory, which no organization shows yet. */
  stage<C extends CollectionName>(inventoryId: number, collection: C, items: readonly Inventory[C][number][], invalidIds: readonly string[]): AppendOutcome {
    return this.now('stage', (writes) => writes.append(inventoryId, collection, items, invalidIds));
  }

  /**
   * Makes a staged inventory the organization's, with the sync's success and what it changed;
   * the inventory it replaces is then nobody's, left to collection. The staged pages still held
   * are logged first, a slice at a time, so that the swap has little to log. Answers the changes
   * recorded, in brief (none when nothing changed).
   */
  swap(organization: Organization, inventoryId: number, success: SyncSuccess, tally: SyncChangeTally): Promise<SyncChangesSummary | undefined> {
    const { organizations, sync, syncChanges } = this.wiring;
    return this.settled('swap', () => {
      this.stillThere(organization);
      organizations.setInventory(organization.rowId, inventoryId);
      sync.recordSuccess(organization.rowId, success, { dataWritten: true });
      return syncChanges.record(organization.rowId, success, tally);
    });
  }

  /**
   * Applies changes to the organization's inventory (`change` writes them into the inventory it
   * shows, counting them in the tally; a throw rolls all back) with the sync's success and what
   * it changed, in one transaction. Answers the changes recorded, in brief.
   */
  apply(
    organization: Organization,
    success: SyncSuccess,
    change: InventoryChange,
  ): Promise<SyncChangesSummary | undefined> {
    return this.applyInParts(organization, success, [change], () => Promise.resolve());
  }

  /**
   * Applies changes in parts, each its own transaction with a turn of the event loop (`pause`)
   * between them, the last one with the sync's success and what all of them changed: a merge too
   * large for one write to leave the thread to other requests within its bound. The parts are
   * `held` writes and the last is settled: a crash keeps a prefix of them, never a part without
   * the ones before, and the next sync, which starts from this one's predecessor, brings the rest
   * again. Meanwhile {@link whenApplied} holds the organization's readers. Answers the changes
   * recorded, in brief.
   */
  async applyInParts(
    organization: Organization,
    success: SyncSuccess,
    parts: readonly InventoryChange[],
    pause: () => Promise<void>,
  ): Promise<SyncChangesSummary | undefined> {
    if (parts.length <= 1) return this.applyLast('apply', organization, success, new SyncChangeTally(), parts[0]);
    const inParts = this.beginParts(organization, 'merge');
    try {
      for (const part of parts.slice(0, -1)) {
        inParts.part(part);
        await pause();
      }
      return await inParts.finish(success, parts.at(-1));
    } finally {
      inParts.release();
    }
  }

  /**
   * Begins changes applied in parts as they come: a merge in parts ({@link applyInParts}), or a
   * replacement in place, whose parts, logged as pages, remove the rows its remote no longer has
   * and then merge the remote's pages as they arrive, and whose last write also drops the texts
   * and CVE ids no finding uses any more. Until {@link PartsInProgress.finish} commits or
   * {@link PartsInProgress.release} is called, {@link whenApplied} holds the organization's readers.
   */
  beginParts(organization: Organization, kind: 'merge' | 'replacement'): PartsInProgress {
    if (this.applying.has(organization.rowId)) throw new Error(`The changes of "${organization.slug}" are being applied already`);
    let ended!: () => void;
    this.applying.set(organization.rowId, new Promise<void>((resolve) => (ended = resolve)));
    let released = false;
    // Once only: a second release, after the last part's fsync, would remove the gate of a sync begun meanwhile.
    const release = () => {
      if (released) return;
      released = true;
      this.applying.delete(organization.rowId);
      ended();
    };
    const tally = new SyncChangeTally();
    const [partStep, lastStep] = kind === 'merge' ? (['applyPart', 'apply'] as const) : (['replacePart', 'replaceLast'] as const);
    return {
      part: (change) => this.now(partStep, (writes) => change(writes, this.stillThere(organization).inventoryId, tally)),
      finish: async (success, last) => {
        const recorded = this.applyLast(lastStep, organization, success, tally, (writes, inventoryId) => {
          last?.(writes, inventoryId, tally);
          // After `last`, which may still change findings: a text is unused once no finding refers to it.
          if (kind === 'replacement') writes.dropUnusedTexts();
        });
        // The last part has committed (a settled write commits at once): the readers need not wait for its fsync.
        release();
        return await recorded;
      },
      release,
    };
  }

  /** The write that ends a sync's changes: the last of them, the sync's success, and what they all changed. */
  private applyLast(
    step: 'apply' | 'replaceLast',
    organization: Organization,
    success: SyncSuccess,
    tally: SyncChangeTally,
    last: InventoryChange | undefined,
  ): Promise<SyncChangesSummary | undefined> {
    const { sync, syncChanges } = this.wiring;
    return this.settled(step, (writes) => {
      last?.(writes, this.stillThere(organization).inventoryId, tally);
      // A reconcile's deletions are not in the merge's moves: its totals are counted again.
      sync.recordSuccess(organization.rowId, success, { dataWritten: true, totalsMoved: success.mode === 'incremental' ? tally.totals.by : undefined });
      return syncChanges.record(organization.rowId, success, tally);
    });
  }

  /**
   * Records a sync that found nothing to write: its success alone, which keeps the values
   * derived from the data. Answers no changes recorded, as {@link apply} answers those it records.
   */
  async recordUnchanged(organization: Organization, success: SyncSuccess): Promise<undefined> {
    await this.settled('recordUnchanged', () => {
      this.stillThere(organization);
      this.wiring.sync.recordSuccess(organization.rowId, success, { dataWritten: false });
    });
    return undefined;
  }

  /** Records a count check after a successful sync, unless the organization was removed meanwhile. */
  async recordCountCheck(orgRowId: number, outcome: CountCheckOutcome): Promise<void> {
    await this.settled('recordCountCheck', () => {
      if (this.wiring.organizations.byRowId(orgRowId)) this.wiring.sync.recordCountCheck(orgRowId, outcome);
    });
  }

  /** Records a failed attempt, unless the organization was removed meanwhile (a disconnect interrupts its sync). */
  recordFailure(orgRowId: number, failure: { startedAt: string; mode: SyncMode; error: string }): void {
    if (!this.wiring.organizations.byRowId(orgRowId)) return;
    this.now('recordFailure', () => this.wiring.sync.recordFailure(orgRowId, failure));
  }

  /** Pauses (or resumes) a replica's background syncs; its sync state stays. */
  setPaused(orgRowId: number, paused: boolean): void {
    this.now('setPaused', () => this.wiring.sync.setPaused(orgRowId, paused));
  }

  /** Saves a replica's sync settings; its sync state stays. */
  saveSettings(orgRowId: number, settings: SyncSettings): void {
    this.now('saveSettings', () => this.wiring.sync.saveSettings(orgRowId, settings));
  }

  /** Runs a step whose write is done (held or fsynced) when it returns. */
  private now<T>(step: StepsWith<'held' | 'on-thread'>, work: (writes: InventoryWrites) => T): T {
    const write: StepWrite = syncStepWrites[step];
    return this.wiring.write(work, { changes: write.changes, durable: write.durability === 'on-thread', asPages: write.asPages });
  }

  /** Runs a step whose write resolves once logged and fsynced in the thread pool. */
  private async settled<T>(step: StepsWith<'settled'>, work: (writes: InventoryWrites) => T): Promise<T> {
    const write: StepWrite = syncStepWrites[step];
    if (write.settleFirst) await this.wiring.settle();
    return this.wiring.writeSettled(work, { changes: write.changes });
  }

  /** The organization as the store holds it now; throws inside a step's transaction (which then rolls back) when it was removed. */
  private stillThere(organization: Organization): Organization {
    const current = this.wiring.organizations.byRowId(organization.rowId);
    if (!current) throw new OrganizationRemovedError(organization.slug);
    return current;
  }
}
