import type { DoneCheck, StatusMapping, StatusMappingEdit, StatusNameMapping, StillVulnerable, WorkPackageEdit, WorkPackageTicket } from '../../../contracts/console/work-packages.js';
import type { TicketStatus, TicketSystem } from '../../../contracts/console/work-package-basics.js';
import type { Database } from '../engine/database.js';
import type { RecordWrite } from '../derived/change-kinds.js';
import { keepNewest } from '../basics/keep-newest.js';

/** What the console keeps of one work package, by organization and external id. */
export interface WorkPackageRecord {
  externalId: string;
  vendor: string | null;
  product: string | null;
  owner: string;
  note: string;
  ticket: WorkPackageTicket | null;
  stillVulnerable: StillVulnerable | null;
}

/** A ticket a status import read, for the step of `externalId` (whose product it records). */
export interface ImportedTicket {
  externalId: string;
  vendor: string | null;
  product: string | null;
  system: TicketSystem;
  key: string;
  status: TicketStatus;
  systemStatus: string;
  resolution: string;
  resolvedAt: string | null;
}

interface Row {
  external_id: string;
  vendor: string | null;
  product: string | null;
  owner: string;
  note: string;
  ticket_system: TicketSystem | null;
  ticket_key: string | null;
  ticket_status: TicketStatus | null;
  system_status: string | null;
  resolution: string | null;
  resolved_at: string | null;
  imported_at: string | null;
  still_vulnerable: string | null;
}

function toRecord(row: Row): WorkPackageRecord {
  const ticket: WorkPackageTicket | null =
    row.ticket_key === null
      ? null
      : {
          system: row.ticket_system!,
          key: row.ticket_key,
          status: row.ticket_status!,
          system_status: row.system_status ?? '',
          resolution: row.resolution ?? '',
          resolved_at: row.resolved_at,
          imported_at: row.imported_at!,
        };
  return {
    externalId: row.external_id,
    vendor: row.vendor,
    product: row.product,
    owner: row.owner,
    note: row.note,
    ticket,
    stillVulnerable: row.still_vulnerable === null ? null : (JSON.parse(row.still_vulnerable) as StillVulnerable),
  };
}

/** The most checks kept per organization in the change feed. */
const checksKept = 100;

/**
 * The SQL of the work_packages, work_package_checks and ticket_status_mappings tables: what the
 * console adds to a plan step (owner, note, the ticket a status import read, the check after a
 * sync), per organization and external id, and the organization's own status names; local and
 * kept across syncs. Every write is one store write of the
 * `work-packages` kind; the figures of the plan are not read from it, so none is dropped.
 */
export class WorkPackageRecords {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {}

  /** The organization's records by external id. */
  byExternalId(orgRowId: number): Map<string, WorkPackageRecord> {
    const rows = this.db.all<Row>('SELECT * FROM work_packages WHERE org_id = ?', [orgRowId]);
    return new Map(rows.map((row) => [row.external_id, toRecord(row)]));
  }

  /** Sets a step's owner and note. */
  edit(orgRowId: number, externalId: string, step: { vendor: string | null; product: string | null }, edit: WorkPackageEdit): void {
    this.write(['work-packages'], () =>
      this.db.run(
        `INSERT INTO work_packages (org_id, external_id, vendor, product, owner, note) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, external_id) DO UPDATE SET owner = excluded.owner, note = excluded.note`,
        [orgRowId, externalId, step.vendor, step.product, edit.owner, edit.note],
      ),
    );
  }

  /**
   * Stores the tickets of a status import, all in one write: a ticket replaces the one its step
   * had, and a check's flag of a step that is no longer done is dropped. Answers how many steps
   * changed (another key, status or resolution).
   */
  importTickets(orgRowId: number, tickets: readonly ImportedTicket[]): number {
    const importedAt = new Date(this.now()).toISOString();
    return this.write(['work-packages'], () => {
      const before = this.byExternalId(orgRowId);
      let changed = 0;
      for (const ticket of tickets) {
        const old = before.get(ticket.externalId)?.ticket;
        if (!old || old.key !== ticket.key || old.status !== ticket.status || old.resolution !== ticket.resolution) changed++;
        this.db.run(
          `INSERT INTO work_packages (org_id, external_id, vendor, product, ticket_system, ticket_key, ticket_status, system_status, resolution, resolved_at, imported_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (org_id, external_id) DO UPDATE SET vendor = excluded.vendor, product = excluded.product, ticket_system = excluded.ticket_system,
             ticket_key = excluded.ticket_key, ticket_status = excluded.ticket_status, system_status = excluded.system_status,
             resolution = excluded.resolution, resolved_at = excluded.resolved_at, imported_at = excluded.imported_at,
             still_vulnerable = CASE WHEN excluded.ticket_status = 'done' THEN still_vulnerable END`,
          [orgRowId, ticket.externalId, ticket.vendor, ticket.product, ticket.system, ticket.key, ticket.status, ticket.systemStatus, ticket.resolution, ticket.resolvedAt, importedAt],
        );
      }
      return changed;
    });
  }

  /**
   * Records what the check after a sync found: each done step's flag (null: fixed), and, when
   * some step is flagged anew or on another number of endpoints, an entry of the change feed.
   */
  recordCheck(orgRowId: number, checkedAt: string, flags: ReadonlyMap<string, StillVulnerable | null>, flagged: DoneCheck['flagged']): void {
    const before = this.byExternalId(orgRowId);
    const news = flagged.some((flag) => before.get(flag.external_id)?.stillVulnerable?.endpoints !== flag.endpoints);
    const unchanged = [...flags].every(([id, flag]) => (before.get(id)?.stillVulnerable?.endpoints ?? null) === (flag?.endpoints ?? null));
    if (unchanged && !news) return;
    this.write(['work-packages'], () => {
      for (const [externalId, flag] of flags) {
        this.db.run('UPDATE work_packages SET still_vulnerable = ? WHERE org_id = ? AND external_id = ?', [flag && JSON.stringify(flag), orgRowId, externalId]);
      }
      if (!news) return;
      this.db.run('INSERT INTO work_package_checks (org_id, checked_at, flagged) VALUES (?, ?, ?)', [orgRowId, checkedAt, JSON.stringify(flagged)]);
      keepNewest(this.db, 'work_package_checks', orgRowId, checksKept);
    });
  }

  /** The status names the organization's teams gave their tickets, as it saved them: none until it does. */
  statusMapping(orgRowId: number): StatusMapping {
    const row = this.db.get<{ mappings: string; updated_at: string }>('SELECT mappings, updated_at FROM ticket_status_mappings WHERE org_id = ?', [orgRowId]);
    return row ? { mappings: JSON.parse(row.mappings) as StatusNameMapping[], updated_at: row.updated_at } : { mappings: [], updated_at: null };
  }

  /** Replaces the organization's mapping of status names (already validated: each name once per system). */
  setStatusMapping(orgRowId: number, edit: StatusMappingEdit): StatusMapping {
    this.write(['work-packages'], () =>
      this.db.run(
        `INSERT INTO ticket_status_mappings (org_id, mappings, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (org_id) DO UPDATE SET mappings = excluded.mappings, updated_at = excluded.updated_at`,
        [orgRowId, JSON.stringify(edit.mappings), new Date(this.now()).toISOString()],
      ),
    );
    return this.statusMapping(orgRowId);
  }

  /** The checks that flagged a step, newest first. */
  checks(orgRowId: number): DoneCheck[] {
    return this.db
      .all<{ id: number; checked_at: string; flagged: string }>('SELECT id, checked_at, flagged FROM work_package_checks WHERE org_id = ? ORDER BY id DESC', [orgRowId])
      .map((row) => ({ id: row.id, checked_at: row.checked_at, flagged: JSON.parse(row.flagged) as DoneCheck['flagged'] }));
  }
}
