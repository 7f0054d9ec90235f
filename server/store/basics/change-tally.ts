import type { CollectionName } from '../../../contracts/collections.js';
import { syncChangeFindingsListed, syncFindingMovesKept } from '../../../contracts/console/sync-change-bounds.js';
import type { NewlyOpenFindings, RemediatedFindings, SyncChangeCounts, SyncChangeFinding } from '../../../contracts/console/sync-changes.js';
import type { SyncCounts } from '../../../contracts/console/sync.js';
import { CountCheckMoves } from './count-check-moves.js';

/** A finding a sync's changes list, before its endpoint's hostname is looked up. */
export type TalliedFinding = Omit<SyncChangeFinding, 'endpoint_hostname'>;

/** What decides whether a finding is open critical or KEV. */
export interface FindingState {
  status: string;
  severity: string;
  isKev: boolean;
}

/** Whether a finding needs attention first: open, and critical or in CISA's KEV catalog. */
export function isOpenCriticalOrKev(finding: FindingState): boolean {
  return finding.status === 'open' && (finding.severity === 'critical' || finding.isKev);
}

const noChanges = () => ({ created: 0, updated: 0, removed: 0 });

/** How a sync moved a finding: `o` it became open, `c` it stopped being open, `k` open before and after, it became KEV. */
export type FindingMove = 'o' | 'c' | 'k';

/** The move of a finding from `before` (undefined: the replica did not hold it) to `after`; undefined for none. */
export function findingMove(before: { status: string; isKev: boolean } | undefined, after: { status: string; isKev: boolean }): FindingMove | undefined {
  const wasOpen = before?.status === 'open';
  if (after.status === 'open') return !wasOpen ? 'o' : after.isKev && !before.isKev ? 'k' : undefined;
  return wasOpen ? 'c' : undefined;
}

/**
 * What one sync changed, counted as the sync applies it (an incremental sync's merge, item by
 * item) or as it compares the inventory it staged with the one it replaces (a full sync, in
 * SQL): per collection the items created, updated and removed, and the findings that became
 * open critical or KEV and those remediated, the first {@link syncChangeFindingsListed} of each
 * by id with their totals.
 */
export class SyncChangeTally {
  readonly counts: SyncChangeCounts = { endpoints: noChanges(), remediationTargets: noChanges(), scopes: noChanges(), findings: noChanges() };
  readonly newlyOpen: NewlyOpenFindings = { total: 0, critical: 0, kev: 0, findings: [] };
  readonly remediated: RemediatedFindings = { total: 0, findings: [] };
  /**
   * Every finding the sync moved, by id, each list whole (a delta between two syncs reads them);
   * null once they are more than {@link syncFindingMovesKept}, when none is kept.
   */
  moves: Record<FindingMove, string[]> | null = { o: [], c: [], k: [] };
  private movesCount = 0;
  /** How an incremental sync's merge moved the count check's totals (a reconcile's or full sync's are counted again). */
  readonly totals = new CountCheckMoves();

  /**
   * @param firstSync the replica held nothing before: every item counts as created, and no
   *   finding as newly open (the first sync of a replica is not news about its findings).
   */
  constructor(readonly firstSync = false) {}

  /** A first sync's changes: the items it received, all created. */
  static firstSync(received: SyncCounts): SyncChangeTally {
    const tally = new SyncChangeTally(true);
    for (const collection of Object.keys(received) as CollectionName[]) tally.counts[collection].created = received[collection];
    return tally;
  }

  /** Whether the sync changed anything: one that did not is not recorded. */
  get changedAnything(): boolean {
    return Object.values(this.counts).some((counts) => counts.created + counts.updated + counts.removed > 0);
  }

  /** How many more findings of a list are kept by id. */
  roomFor(list: 'newlyOpen' | 'remediated'): number {
    return syncChangeFindingsListed - this[list].findings.length;
  }

  /** An item a merge wrote: created when the replica did not hold it, updated otherwise. */
  merged(collection: CollectionName, existed: boolean): void {
    this.counts[collection][existed ? 'updated' : 'created']++;
  }

  /** A finding a merge wrote, with its state before (undefined when it is new). */
  mergedFinding(finding: TalliedFinding & { status: string }, before: FindingState | undefined): void {
    this.merged('findings', before !== undefined);
    const move = findingMove(before, { status: finding.status, isKev: finding.is_kev });
    if (move) this.moved(move, [finding.id.toLowerCase()]);
    if (isOpenCriticalOrKev({ status: finding.status, severity: finding.severity, isKev: finding.is_kev }) && !(before && isOpenCriticalOrKev(before))) {
      this.addNewlyOpen(1, finding.severity === 'critical' ? 1 : 0, finding.is_kev ? 1 : 0);
      this.listNewlyOpen(finding);
    } else if (finding.status === 'remediated' && before?.status === 'open') {
      this.addRemediated(1);
      this.listRemediated(finding);
    }
  }

  /** Counts findings that became open critical or KEV (of which `critical` critical and `kev` KEV). */
  addNewlyOpen(total: number, critical: number, kev: number): void {
    this.newlyOpen.total += total;
    this.newlyOpen.critical += critical;
    this.newlyOpen.kev += kev;
  }

  /** Keeps the ids of findings the sync moved so, while they are few enough to keep. */
  moved(move: FindingMove, ids: readonly string[]): void {
    this.movesCount += ids.length;
    if (this.movesCount > syncFindingMovesKept) this.moves = null;
    else if (this.moves) for (const id of ids) this.moves[move].push(id);
  }

  /** Counts findings remediated. */
  addRemediated(total: number): void {
    this.remediated.total += total;
  }

  /** Lists a finding that became open critical or KEV, while there is room. */
  listNewlyOpen(finding: TalliedFinding): void {
    if (this.roomFor('newlyOpen') > 0) this.newlyOpen.findings.push(tallied(finding));
  }

  /** Lists a finding remediated, while there is room. */
  listRemediated(finding: TalliedFinding): void {
    if (this.roomFor('remediated') > 0) this.remediated.findings.push(tallied(finding));
  }
}

/** The fields a change lists, and only those (a merged finding carries all of its own). */
function tallied(finding: TalliedFinding): SyncChangeFinding {
  return {
    id: finding.id.toLowerCase(),
    cve_id: finding.cve_id,
    severity: finding.severity,
    is_kev: finding.is_kev,
    endpoint_id: finding.endpoint_id === null ? null : finding.endpoint_id.toLowerCase(),
    endpoint_hostname: null,
  };
}
