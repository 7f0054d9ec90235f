import type { TagRuleCondition } from '../../../contracts/console/endpoint-context.js';
import type { EndpointCriticality } from '../../../contracts/enums.js';
import type { Database } from '../engine/database.js';
import type { EndpointFacts } from './tag-rule-conditions.js';

/** A tag rule's row. */
export interface TagRuleRecord {
  id: string;
  tag: string;
  conditions: TagRuleCondition[];
  note: string;
  created_at: string;
  updated_at: string;
}

/** What is set on one endpoint: its tags as spelt, and its criticality (`normal` when unset). */
export interface ExplicitContext {
  tags: string[];
  criticality: EndpointCriticality;
}

/**
 * The SQL of the endpoint context tables (migrations.ts): explicit tags and criticality by
 * endpoint id, and tag rules, each a local record of the organization's row. Called inside a
 * write of the store (EndpointContext).
 */
export class EndpointContextRecords {
  constructor(private readonly db: Database) {}

  /** Every endpoint id of the organization with something set, with what is set; tags sorted case-insensitively. */
  explicit(orgRowId: number): Map<string, ExplicitContext> {
    const context = new Map<string, ExplicitContext>();
    const entry = (id: string) => context.get(id) ?? context.set(id, { tags: [], criticality: 'normal' }).get(id)!;
    for (const row of this.db.all<{ endpoint_id: string; tag: string }>(
      'SELECT endpoint_id, tag FROM endpoint_tags WHERE org_id = ? ORDER BY endpoint_id, tag_key',
      [orgRowId],
    )) {
      entry(row.endpoint_id).tags.push(row.tag);
    }
    for (const row of this.db.all<{ endpoint_id: string; criticality: EndpointCriticality }>(
      'SELECT endpoint_id, criticality FROM endpoint_criticality WHERE org_id = ?',
      [orgRowId],
    )) {
      entry(row.endpoint_id).criticality = row.criticality;
    }
    return context;
  }

  /**
   * Sets one endpoint's tags (spelt as given, one per key) and criticality, writing only the rows
   * that differ from `before`.
   */
  put(orgRowId: number, endpointId: string, before: ExplicitContext, after: ExplicitContext): void {
    const keep = new Map(after.tags.map((tag) => [tag.toLowerCase(), tag]));
    const had = new Map(before.tags.map((tag) => [tag.toLowerCase(), tag]));
    for (const [key, tag] of had) {
      if (keep.get(key) !== tag) this.db.run('DELETE FROM endpoint_tags WHERE org_id = ? AND endpoint_id = ? AND tag_key = ?', [orgRowId, endpointId, key]);
    }
    for (const [key, tag] of keep) {
      if (had.get(key) !== tag) this.db.run('INSERT INTO endpoint_tags (org_id, endpoint_id, tag_key, tag) VALUES (?, ?, ?, ?)', [orgRowId, endpointId, key, tag]);
    }
    if (before.criticality === after.criticality) return;
    if (after.criticality === 'normal') this.db.run('DELETE FROM endpoint_criticality WHERE org_id = ? AND endpoint_id = ?', [orgRowId, endpointId]);
    else {
      this.db.run('INSERT OR REPLACE INTO endpoint_criticality (org_id, endpoint_id, criticality) VALUES (?, ?, ?)', [orgRowId, endpointId, after.criticality]);
    }
  }

  /** The organization's tag rules, oldest first. */
  rules(orgRowId: number): TagRuleRecord[] {
    return this.db
      .all<Omit<TagRuleRecord, 'conditions'> & { conditions: string }>(
        'SELECT id, tag, conditions, note, created_at, updated_at FROM tag_rules WHERE org_id = ? ORDER BY created_at, id',
        [orgRowId],
      )
      .map((row) => ({ ...row, conditions: JSON.parse(row.conditions) as TagRuleCondition[] }));
  }

  /** Stores a new rule or replaces the one of its id. */
  putRule(orgRowId: number, rule: TagRuleRecord): void {
    this.db.run(
      `INSERT OR REPLACE INTO tag_rules (org_id, id, tag_key, tag, conditions, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [orgRowId, rule.id, rule.tag.toLowerCase(), rule.tag, JSON.stringify(rule.conditions), rule.note, rule.created_at, rule.updated_at],
    );
  }

  /** Removes a rule; whether there was one. */
  deleteRule(orgRowId: number, id: string): boolean {
    const held = this.db.value('SELECT 1 FROM tag_rules WHERE org_id = ? AND id = ?', [orgRowId, id]) !== undefined;
    if (held) this.db.run('DELETE FROM tag_rules WHERE org_id = ? AND id = ?', [orgRowId, id]);
    return held;
  }

  /** The facts tag rules read of every endpoint the organization shows in `inventoryId`. */
  facts(inventoryId: number): EndpointFacts[] {
    return this.db.all<EndpointFacts>('SELECT id, hostname, ip, os_family, os_name, has_agent FROM endpoints WHERE org_id = ?', [inventoryId]);
  }
}
