import crypto from 'node:crypto';
import type { SqlValue } from 'sql.js';
import type { Endpoint } from '../schemas/endpoint.js';
import type { Inventory } from '../schemas/inventory.js';
import type { RemediationTarget } from '../schemas/remediation-target.js';
import type { Scope } from '../schemas/scope.js';
import type { VulnerabilityFinding } from '../schemas/vulnerability-finding.js';
import type { Database } from './database.js';

interface Timestamped {
  id: string;
  created_at: string;
}

/** The lists' default order: created_at (as an instant, whatever its offset), then id. */
function inDefaultOrder<T extends Timestamped>(items: readonly T[]): T[] {
  const keyed = items.map((item) => ({ item, at: Date.parse(item.created_at) }));
  keyed.sort((a, b) => a.at - b.at || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  return keyed.map((entry) => entry.item);
}

const lower = (id: string | null) => (id === null ? null : id.toLowerCase());

/** The inventory tables an organization's rows live in, children first. */
const inventoryTables = ['findings', 'remediation_targets', 'scopes', 'endpoints'] as const;

/**
 * Writes an organization's inventory. Rows are inserted in the lists' default order so that
 * `seq`, the table's rowid, is that order (see migrations.ts).
 */
export class InventoryWrites {
  private readonly cveRefs = new Map<string, number>();
  private readonly textRefs = new Map<string, number>();

  constructor(private readonly db: Database) {}

  /** Replaces all of an organization's inventory with `inventory`, in the caller's transaction. */
  replace(orgRowId: number, inventory: Inventory): void {
    // A rolled-back transaction may have left ids in the caches that no longer exist.
    this.cveRefs.clear();
    this.textRefs.clear();
    this.deleteAll(orgRowId);
    for (const endpoint of inDefaultOrder(inventory.endpoints)) this.insertEndpoint(orgRowId, endpoint);
    for (const target of inDefaultOrder(inventory.remediationTargets)) this.insertTarget(orgRowId, target);
    for (const scope of inDefaultOrder(inventory.scopes)) this.insertScope(orgRowId, scope);
    for (const finding of inDefaultOrder(inventory.findings)) this.insertFinding(orgRowId, finding);
    this.dropUnusedTexts();
  }

  /** Deletes every inventory row of an organization, in the caller's transaction. */
  deleteAll(orgRowId: number): void {
    for (const table of inventoryTables) this.db.run(`DELETE FROM ${table} WHERE org_id = ?`, [orgRowId]);
  }

  /** Drops CVE ids and texts no finding refers to any more. */
  dropUnusedTexts(): void {
    this.db.run('DELETE FROM finding_texts WHERE id NOT IN (SELECT text_ref FROM findings)');
    this.db.run('DELETE FROM cves WHERE id NOT IN (SELECT cve_ref FROM findings)');
    this.cveRefs.clear();
    this.textRefs.clear();
  }

  private insertEndpoint(orgRowId: number, e: Endpoint): void {
    const os = e.operating_system;
    this.db.run(
      `INSERT INTO endpoints (org_id, id, hostname, ip, mac_address, os_name, os_version, os_family,
         os_vendor, os_architecture, agent_id, agent_version, has_agent, created_at, updated_at, updated_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId, lower(e.id), e.hostname, e.ip, e.mac_address, os.name, os.version, os.family, os.vendor,
        os.architecture, lower(e.agent_id), e.agent_version, e.agent_id === null ? 0 : 1, e.created_at,
        e.updated_at, Date.parse(e.updated_at),
      ],
    );
  }

  private insertTarget(orgRowId: number, t: RemediationTarget): void {
    this.db.run(
      `INSERT INTO remediation_targets (org_id, id, endpoint_id, target_type, vendor, product, version,
         install_path, package_name, package_manager, status, source, associated_cves, highest_cvss_score,
         created_at, updated_at, updated_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId, lower(t.id), lower(t.endpoint_id), t.target_type, t.vendor, t.product, t.version,
        t.install_path, t.package_name, t.package_manager, t.status, t.source, JSON.stringify(t.associated_cves),
        t.highest_cvss_score, t.created_at, t.updated_at, Date.parse(t.updated_at),
      ],
    );
  }

  private insertScope(orgRowId: number, s: Scope): void {
    this.db.run(
      `INSERT INTO scopes (org_id, id, name, description, status, subject_filter, endpoint_filter,
         finding_filter, created_at, updated_at, updated_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId, lower(s.id), s.name, s.description, s.status, JSON.stringify(s.subject_filter),
        JSON.stringify(s.endpoint_filter), JSON.stringify(s.finding_filter), s.created_at, s.updated_at,
        Date.parse(s.updated_at),
      ],
    );
  }

  private insertFinding(orgRowId: number, f: VulnerabilityFinding): void {
    this.db.run(
      `INSERT INTO findings (org_id, id, endpoint_id, remediation_target_id, cve_ref, text_ref, severity,
         cvss_score, is_kev, status, source, first_detected_at, remediated_at, created_at, updated_at, updated_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        orgRowId, lower(f.id), lower(f.endpoint_id), lower(f.remediation_target_id), this.cveRef(f.cve_id),
        this.textRef(f.title, f.description, f.solution), f.severity, f.cvss_score, f.is_kev ? 1 : 0, f.status,
        f.source, f.first_detected_at, f.remediated_at, f.created_at, f.updated_at, Date.parse(f.updated_at),
      ],
    );
  }

  private cveRef(cveId: string): number {
    const key = cveId.toUpperCase();
    let ref = this.cveRefs.get(key);
    if (ref === undefined) {
      this.db.run('INSERT OR IGNORE INTO cves (cve_id) VALUES (?)', [cveId]);
      ref = Number(this.db.value('SELECT id FROM cves WHERE cve_id = ?', [cveId]));
      this.cveRefs.set(key, ref);
    }
    return ref;
  }

  private textRef(title: string, description: string | null, solution: string | null): number {
    const fields: SqlValue[] = [title, description, solution];
    const digest = crypto.createHash('sha1').update(JSON.stringify(fields)).digest('base64url');
    let ref = this.textRefs.get(digest);
    if (ref === undefined) {
      this.db.run('INSERT OR IGNORE INTO finding_texts (digest, title, description, solution) VALUES (?, ?, ?, ?)', [
        digest,
        ...fields,
      ]);
      ref = Number(this.db.value('SELECT id FROM finding_texts WHERE digest = ?', [digest]));
      this.textRefs.set(digest, ref);
    }
    return ref;
  }
}
