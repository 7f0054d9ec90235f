import crypto from 'node:crypto';
import type { Database } from '../engine/database.js';
import type { Inventories } from '../inventory/inventories.js';
import { type ChangeKind, type RecordWrite, changeKinds } from '../derived/change-kinds.js';

/** An organization of the store (DESIGN section 4). Secrets are never part of this record. */
export interface Organization {
  /** Internal row id; never leaves the server. API keys, secrets and sync records are keyed by it. */
  rowId: number;
  /**
   * The inventory whose rows the organization shows (inventory-ids.ts); a full sync points it at
   * the inventory it staged. Reads take the organization's row id and resolve this when they run.
   */
  inventoryId: number;
  /** The organization id recorded in agent configuration files. */
  id: string;
  slug: string;
  name: string;
  kind: 'local' | 'replica';
  isDemo: boolean;
  remoteUrl: string | null;
  hasEnrollmentSecret: boolean;
  certificatePem: string | null;
  createdAt: string;
}

interface OrganizationRow {
  id: number;
  inventory_id: number;
  uuid: string;
  slug: string;
  name: string;
  kind: 'local' | 'replica';
  is_demo: number;
  remote_url: string | null;
  has_secret: number;
  certificate_pem: string | null;
  created_at: string;
}

const selectOrganization = `
  SELECT id, inventory_id, uuid, slug, name, kind, is_demo, remote_url, certificate_pem, created_at,
         enrollment_secret_sealed IS NOT NULL AS has_secret
  FROM organizations`;

function toOrganization(row: OrganizationRow): Organization {
  return {
    rowId: row.id,
    inventoryId: row.inventory_id,
    id: row.uuid,
    slug: row.slug,
    name: row.name,
    kind: row.kind,
    isDemo: row.is_demo === 1,
    remoteUrl: row.remote_url,
    hasEnrollmentSecret: row.has_secret === 1,
    certificatePem: row.certificate_pem,
    createdAt: row.created_at,
  };
}

/** A slug is what a user types on the command line: short, lowercase, URL-safe. */
export const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** What creating an organization takes; sealed secrets are sealed by the caller. */
export interface NewOrganization {
  slug: string;
  name: string;
  kind: 'local' | 'replica';
  isDemo?: boolean;
  remoteUrl?: string;
  remoteKeySealed?: Buffer;
  enrollmentSecretSealed?: Buffer;
  signingKeySealed?: Buffer;
  certificatePem?: string;
}

/** What a change of an organization's row changes. */
const rowChanges: readonly ChangeKind[] = ['organizations'];
/** What a change of the inventory an organization shows changes (a new organization's empty one, a full sync's swap). */
const shownChanges: readonly ChangeKind[] = ['organizations', 'inventory'];

/** The SQL of the organizations table; each change one store write of the kinds it changes. */
export class OrganizationRecords {
  constructor(
    private readonly db: Database,
    private readonly inventories: Inventories,
    private readonly write: RecordWrite,
  ) {}

  /**
   * Runs `work`, several changes of organizations (a check and an insert, a key and its
   * certificate), as one write: each change inside still names what it changes.
   */
  change<T>(work: () => T): T {
    return this.write(rowChanges, work);
  }

  list(): Organization[] {
    return this.db.all<OrganizationRow>(`${selectOrganization} ORDER BY slug`).map(toOrganization);
  }

  bySlug(slug: string): Organization | undefined {
    const row = this.db.get<OrganizationRow>(`${selectOrganization} WHERE slug = ?`, [slug]);
    return row && toOrganization(row);
  }

  byRowId(rowId: number): Organization | undefined {
    const row = this.db.get<OrganizationRow>(`${selectOrganization} WHERE id = ?`, [rowId]);
    return row && toOrganization(row);
  }

  insert(organization: NewOrganization): Organization {
    return this.write(shownChanges, () => {
      this.db.run(
      `INSERT INTO organizations
         (inventory_id, uuid, slug, name, kind, is_demo, remote_url, remote_key_sealed, enrollment_secret_sealed,
          signing_key_sealed, certificate_pem, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        this.inventories.allocate(),
        crypto.randomUUID(),
        organization.slug,
        organization.name,
        organization.kind,
        organization.isDemo ? 1 : 0,
        organization.remoteUrl ?? null,
        organization.remoteKeySealed ?? null,
        organization.enrollmentSecretSealed ?? null,
        organization.signingKeySealed ?? null,
        organization.certificatePem ?? null,
        new Date().toISOString(),
      ],
      );
      return this.bySlug(organization.slug)!;
    });
  }

  /**
   * Deletes an organization with its keys and sync record (their foreign keys cascade). Its
   * inventory is left to collection (Inventories.collect): a million deletes do not belong in
   * this transaction. Every record of the organization goes with it: a change of every kind.
   */
  delete(rowId: number): void {
    this.write(changeKinds, () => this.db.run('DELETE FROM organizations WHERE id = ?', [rowId]));
  }

  /** Changes an organization's name or remote URL in place: its row, and all that hangs on it, stay. */
  update(rowId: number, changes: { name?: string; remoteUrl?: string }): void {
    this.write(rowChanges, () => {
      if (changes.name !== undefined) this.db.run('UPDATE organizations SET name = ? WHERE id = ?', [changes.name, rowId]);
      if (changes.remoteUrl !== undefined) this.db.run('UPDATE organizations SET remote_url = ? WHERE id = ?', [changes.remoteUrl, rowId]);
    });
  }

  /** Points an organization at another inventory: the swap at the end of a full sync. */
  setInventory(rowId: number, inventoryId: number): void {
    this.write(shownChanges, () => this.db.run('UPDATE organizations SET inventory_id = ? WHERE id = ?', [inventoryId, rowId]));
  }

  sealedSecret(rowId: number, secret: 'enrollment_secret' | 'signing_key' | 'remote_key'): Buffer | undefined {
    const value = this.db.value(`SELECT ${secret}_sealed FROM organizations WHERE id = ?`, [rowId]);
    return value instanceof Uint8Array ? Buffer.from(value) : undefined;
  }

  setSealedSecret(rowId: number, secret: 'enrollment_secret' | 'signing_key' | 'remote_key', sealed: Buffer | null): void {
    this.write(rowChanges, () => this.db.run(`UPDATE organizations SET ${secret}_sealed = ? WHERE id = ?`, [sealed, rowId]));
  }

  setCertificate(rowId: number, certificatePem: string): void {
    this.write(rowChanges, () => this.db.run('UPDATE organizations SET certificate_pem = ? WHERE id = ?', [certificatePem, rowId]));
  }
}
