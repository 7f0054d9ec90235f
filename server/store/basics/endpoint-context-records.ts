import { derivedValue } from '../derived/change-kinds.js';
import type { TagRuleCondition } from '../../../contracts/console/endpoint-context.js';
import type { EndpointCriticality } from '../../../contracts/enums.js';
import type { SqlValue } from 'sql.js';
import type { Database } from '../engine/database.js';
import type { TimeSlices } from '../derived/time-slices.js';
import type { EndpointFacts } from './tag-rule-conditions.js';

/**
 * The endpoint context as written (tags, criticality, tag rules), not what it gives the
 * endpoints: what a value keyed on the context's writes alone names in its key.
 */
export const endpointContextWrites = derivedValue('endpoint context as written', ['endpoint-context']);

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

/** What is set on an endpoint, before and after a write. */
export interface ContextChange {
  endpointId: string;
  before: ExplicitContext;
  after: ExplicitContext;
}

/** Rows read per statement: one JSON value each, since sql.js pays a call into WebAssembly per value read. */
const rowsPerRead = 1_024;

/**
 * The SQL of the endpoint context tables (migrations.ts): explicit tags and criticality by
 * endpoint id, and tag rules, each a local record of the organization's row. Called inside a
 * write of the store (EndpointContext).
 */
export class EndpointContextRecords {
  constructor(private readonly db: Database) {}

  /**
   * Every endpoint id of the organization with something set, with what is set; tags sorted
   * case-insensitively. Read {@link rowsPerRead} rows per statement, pausing as `slices` says.
   */
  async explicit(orgRowId: number, slices: TimeSlices): Promise<Map<string, ExplicitContext>> {
    const context = new Map<string, ExplicitContext>();
    const entry = (id: string) => context.get(id) ?? context.set(id, { tags: [], criticality: 'normal' }).get(id)!;
    const tags = 'FROM endpoint_tags WHERE org_id = ? AND (endpoint_id, tag_key) > (?, ?) ORDER BY endpoint_id, tag_key';
    for await (const [endpointId, , tag] of this.inChunks<[string, string, string]>('endpoint_id, tag_key, tag', tags, [orgRowId], (row) => [row[0], row[1]], ['', ''], slices)) {
      entry(endpointId).tags.push(tag);
    }
    const criticality = 'FROM endpoint_criticality WHERE org_id = ? AND endpoint_id > ? ORDER BY endpoint_id';
    for await (const [endpointId, level] of this.inChunks<[string, EndpointCriticality]>('endpoint_id, criticality', criticality, [orgRowId], (row) => [row[0]], [''], slices)) {
      entry(endpointId).criticality = level;
    }
    return context;
  }

  /** Whether anything is set on an endpoint of the organization, or it holds a rule. */
  holdsAny(orgRowId: number): boolean {
    const holds = (table: string) => this.db.value(`SELECT 1 FROM ${table} WHERE org_id = ? LIMIT 1`, [orgRowId]) !== undefined;
    return holds('endpoint_tags') || holds('endpoint_criticality') || holds('tag_rules');
  }

  /**
   * Sets endpoints' tags (spelt as given, one per key) and criticality, writing only the rows
   * that differ from what was set before: a statement per kind of row change, whatever the
   * number of endpoints (their rows passed as one JSON array, since sql.js pays a call into
   * WebAssembly per statement and per value bound).
   */
  put(orgRowId: number, changes: readonly ContextChange[]): void {
    const removedTags: [string, string][] = [];
    const addedTags: [string, string, string][] = [];
    const normal: string[] = [];
    const criticality: [string, EndpointCriticality][] = [];
    for (const { endpointId, before, after } of changes) {
      const keep = new Map(after.tags.map((tag) => [tag.toLowerCase(), tag]));
      const had = new Map(before.tags.map((tag) => [tag.toLowerCase(), tag]));
      for (const [key, tag] of had) if (keep.get(key) !== tag) removedTags.push([endpointId, key]);
      for (const [key, tag] of keep) if (had.get(key) !== tag) addedTags.push([endpointId, key, tag]);
      if (before.criticality === after.criticality) continue;
      if (after.criticality === 'normal') normal.push(endpointId);
      else criticality.push([endpointId, after.criticality]);
    }
    const each = (rows: unknown[], sql: string) => {
      if (rows.length > 0) this.db.run(sql, [orgRowId, JSON.stringify(rows)]);
    };
    const cell = (index: number) => `json_extract(value, '$[${index}]')`;
    each(removedTags, `DELETE FROM endpoint_tags WHERE org_id = ? AND (endpoint_id, tag_key) IN (SELECT ${cell(0)}, ${cell(1)} FROM json_each(?))`);
    // OR REPLACE: a `before` read a write earlier may already hold the tag (see EndpointContext.writeChanges).
    each(addedTags, `INSERT OR REPLACE INTO endpoint_tags (org_id, endpoint_id, tag_key, tag) SELECT ?1, ${cell(0)}, ${cell(1)}, ${cell(2)} FROM json_each(?2)`);
    each(normal, 'DELETE FROM endpoint_criticality WHERE org_id = ? AND endpoint_id IN (SELECT value FROM json_each(?))');
    each(criticality, `INSERT OR REPLACE INTO endpoint_criticality (org_id, endpoint_id, criticality) SELECT ?1, ${cell(0)}, ${cell(1)} FROM json_each(?2)`);
  }

  /** The organization's tag rules, oldest first. */
  rules(orgRowId: number): TagRuleRecord[] {
    return this.db
      .all<Omit<TagRuleRecord, 'conditions'> & { conditions: string }>(
        'SELECT id, tag, conditions, note, created_at, updated_at FROM tag_rules WHERE org_id = ? ORDER BY created_at, rowid',
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

  /**
   * The facts tag rules read of every endpoint the organization shows in `inventoryId`, in
   * chunks of {@link rowsPerRead}, pausing as `slices` says between them.
   */
  async *facts(inventoryId: number, slices: TimeSlices): AsyncGenerator<EndpointFacts[]> {
    const columns = 'seq, id, hostname, ip, os_family, os_name, has_agent';
    let chunk: EndpointFacts[] = [];
    for await (const [, id, hostname, ip, os_family, os_name, has_agent] of this.inChunks<[number, string, string, string | null, string, string, number]>(
      columns,
      'FROM endpoints WHERE org_id = ? AND seq > ? ORDER BY seq',
      [inventoryId],
      (row) => [row[0]],
      [Number.MIN_SAFE_INTEGER],
      slices,
    )) {
      chunk.push({ id, hostname, ip, os_family, os_name, has_agent });
      if (chunk.length === rowsPerRead) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }

  /**
   * The rows of `SELECT columns rest`, where `rest` orders by a key and its last parameters are
   * that key's columns (rows after them): {@link rowsPerRead} per statement as one JSON value,
   * with a pause between statements.
   */
  private async *inChunks<Row extends unknown[]>(
    columns: string,
    rest: string,
    params: SqlValue[],
    keyOf: (row: Row) => SqlValue[],
    first: SqlValue[],
    slices: TimeSlices,
  ): AsyncGenerator<Row> {
    const read = `SELECT json_group_array(json_array(${columns})) FROM (SELECT ${columns} ${rest} LIMIT ${rowsPerRead})`;
    for (let after = first; ; ) {
      const rows = JSON.parse(String(this.db.value(read, [...params, ...after]))) as Row[];
      yield* rows;
      if (rows.length < rowsPerRead) return;
      after = keyOf(rows[rows.length - 1]!);
      await slices.pause();
    }
  }
}
