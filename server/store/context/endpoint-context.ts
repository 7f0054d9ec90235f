import crypto from 'node:crypto';
import {
  type BulkUpdateEndpointContextResult,
  type CreateTagRuleBody,
  type EndpointContext as EndpointContextAnswer,
  type EndpointContextImportResult,
  type EndpointTagListResponse,
  type TagRule,
  type UpdateEndpointContextBody,
  type UpdateTagRuleBody,
  tagKey,
} from '../../../contracts/console/endpoint-context.js';
import { type EndpointCriticality, endpointTagLimits } from '../../../contracts/enums.js';
import type { Database } from '../engine/database.js';
import type { ChangeVersions } from '../derived/change-kinds.js';
import { DerivedCache } from '../derived/derived-cache.js';
import { inventoryOf } from '../basics/inventory-ids.js';
import { EffectiveEndpointContext, compareTags, effectiveEndpointContext } from '../basics/effective-endpoint-context.js';
import { type ContextChange, EndpointContextRecords, type ExplicitContext, type TagRuleRecord } from '../basics/endpoint-context-records.js';
import { ruleTest } from '../basics/tag-rule-conditions.js';
import { TimeSlices } from '../derived/time-slices.js';

export { EffectiveEndpointContext } from '../basics/effective-endpoint-context.js';
export { TagRuleConditionError } from '../basics/tag-rule-conditions.js';

/** A change that would break a bound of endpoint context (more than 32 tags on an endpoint, too many rules): the answer is 400. */
export class EndpointContextRuleError extends Error {}

/** A line of an imported file that cannot be applied: the answer is 400 naming it, and nothing is written. */
export class EndpointContextLineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** A line of an imported file, its cells checked: the endpoint by id or hostname, what to set on it. */
export interface EndpointContextLine {
  /** The file's line number (the header is line 1). */
  line: number;
  id?: string | undefined;
  hostname?: string | undefined;
  /** The endpoint's tags; undefined (the file has no such column) leaves them as they are. */
  tags?: string[] | undefined;
  /** Its criticality; undefined (no such column) leaves it as it is. */
  criticality?: EndpointCriticality | undefined;
}

/** A line of the exported file. */
export interface EndpointContextRow {
  id: string;
  /** Null for an endpoint id the organization does not show now (its context is kept until it does). */
  hostname: string | null;
  tags: string[];
  criticality: EndpointCriticality;
}

/** What a bulk change does to each endpoint it selects. */
export interface EndpointContextChange {
  add_tags?: string[] | undefined;
  remove_tags?: string[] | undefined;
  criticality?: EndpointCriticality | undefined;
}

/** Applies a write of endpoint context as one transaction of the store, dropping what is derived from the data (see Store). */
export type EndpointContextWrite = <T>(work: () => T) => T;

/** Endpoints whose context one write changes: some 10 ms of the thread's time. */
const changesPerWrite = 2_000;

const sameContext = (a: ExplicitContext, b: ExplicitContext) => a.criticality === b.criticality && a.tags.join('\n') === b.tags.join('\n');

/**
 * An organization's endpoint context (issue 28): tags and a criticality set per endpoint id,
 * kept across syncs, and tag rules applied at read time. {@link effective} is what the figures,
 * filters and coverage read, built once per version of the endpoints and the context and kept in a DerivedCache;
 * every write is a store write of the `endpoint-context` kind, which drops what is derived from
 * it, so that the next read of a figure sees it.
 */
export class EndpointContext {
  private readonly records: EndpointContextRecords;
  /** Per organization row id. Bound: 8 organizations (20,000 endpoints' context is a few MB). */
  private readonly contexts: DerivedCache<EffectiveEndpointContext>;

  constructor(
    private readonly db: Database,
    versions: ChangeVersions,
    private readonly write: EndpointContextWrite,
    private readonly now: () => number,
  ) {
    this.records = new EndpointContextRecords(db);
    // Read from the endpoints an organization shows (its inventory and the pointer to it) and its context.
    this.contexts = new DerivedCache(versions, effectiveEndpointContext, { bound: { entries: 8 } });
  }

  /**
   * The organization's endpoint context at the data's current version: tags (explicit and from
   * rules), criticality, counts. Built in slices of the event loop's time (20,000 endpoints
   * and their rules are a few hundred milliseconds of work on a loaded machine).
   */
  effective(orgRowId: number): Promise<EffectiveEndpointContext> {
    return this.contexts.settled(String(orgRowId), async (checkpoint) => {
      const slices = new TimeSlices(checkpoint);
      const inventoryId = inventoryOf(this.db, orgRowId);
      const rules = this.records.rules(orgRowId);
      const explicit = await this.records.explicit(orgRowId, slices);
      return EffectiveEndpointContext.build(this.records.facts(inventoryId, slices), explicit, rules, slices);
    });
  }

  /** One endpoint's context as /app answers it; undefined when the organization does not show it. */
  async contextOf(orgRowId: number, endpointId: string): Promise<EndpointContextAnswer | undefined> {
    const id = endpointId.toLowerCase();
    const context = await this.effective(orgRowId);
    if (!context.hostnames.has(id)) return undefined;
    return { endpoint_id: id, tags: context.tagsOf(id), explicit_tags: context.explicitOf(id).tags, criticality: context.criticalityOf(id) };
  }

  /** Replaces what is given of one endpoint's tags and criticality; undefined when the organization does not show it. */
  async update(orgRowId: number, endpointId: string, body: UpdateEndpointContextBody): Promise<EndpointContextAnswer | undefined> {
    const id = endpointId.toLowerCase();
    const context = await this.effective(orgRowId);
    if (!context.hostnames.has(id)) return undefined;
    const before = context.explicitOf(id);
    const after: ExplicitContext = { tags: sortedTags(body.tags ?? before.tags), criticality: body.criticality ?? before.criticality };
    if (!sameContext(before, after)) this.write(() => this.records.put(orgRowId, [{ endpointId: id, before, after }]));
    return this.contextOf(orgRowId, id);
  }

  /**
   * Adds and removes tags and sets the criticality of every endpoint of `endpointIds` (what a
   * filter of the endpoints list selected), writing the rows that change ({@link writeChanges}).
   * Throws {@link EndpointContextRuleError}, writing nothing, when an endpoint would carry more than 32 tags.
   */
  async bulkUpdate(orgRowId: number, endpointIds: readonly string[], change: EndpointContextChange): Promise<BulkUpdateEndpointContextResult> {
    const context = await this.effective(orgRowId);
    const removed = new Set((change.remove_tags ?? []).map(tagKey));
    const added = change.add_tags ?? [];
    const changes: ContextChange[] = [];
    // Turns as the writes give them (writeChanges): a change is computed from the context read above, and written idempotently.
    const slices = new TimeSlices(() => undefined);
    for (const [index, id] of endpointIds.entries()) {
      if (index % 1_000 === 999) await slices.pause();
      const before = context.explicitOf(id);
      const tags = before.tags.filter((tag) => !removed.has(tagKey(tag)));
      for (const tag of added) if (!tags.some((held) => tagKey(held) === tagKey(tag))) tags.push(tag);
      if (tags.length > endpointTagLimits.tagsPerEndpoint) {
        throw new EndpointContextRuleError(`Endpoint ${id} would carry ${tags.length} tags: at most ${endpointTagLimits.tagsPerEndpoint}`);
      }
      const after: ExplicitContext = { tags: sortedTags(tags), criticality: change.criticality ?? before.criticality };
      if (!sameContext(before, after)) changes.push({ endpointId: id, before, after });
    }
    await this.writeChanges(orgRowId, changes, slices);
    return { matched: endpointIds.length, changed: changes.length };
  }

  /** The organization's tags with their counts, whether it has any, and its endpoints per criticality. */
  async tagList(orgRowId: number): Promise<EndpointTagListResponse> {
    const context = await this.effective(orgRowId);
    return { data: context.tagCounts(), has_tags: context.hasTags, criticality: context.criticalities() };
  }

  /**
   * Every endpoint id with a tag or a criticality set, as the CSV file holds it: ordered by
   * hostname case-insensitively, then id; ids the organization does not show now (no hostname) first.
   */
  async exportRows(orgRowId: number): Promise<EndpointContextRow[]> {
    const context = await this.effective(orgRowId);
    const { hostnames } = context;
    const rows: EndpointContextRow[] = [];
    for (const [id, entry] of context.entriesWithContext()) {
      const { tags, criticality } = entry.explicit;
      if (tags.length === 0 && criticality === 'normal') continue;
      rows.push({ id, hostname: hostnames.get(id) ?? null, tags, criticality });
    }
    const sortKey = (row: EndpointContextRow) => (row.hostname ?? '').toLowerCase();
    return rows.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Applies a file's lines, all of them or none: each sets the tags and criticality (those its
   * file has columns for) of the endpoint it names by id (held now or not: kept until a sync
   * brings it), or of every endpoint the organization shows with that hostname
   * (case-insensitively; none is an error). An endpoint named twice is an error. Every line is
   * checked before the first write ({@link writeChanges}); the first problem is thrown as
   * {@link EndpointContextLineError}.
   */
  async importLines(orgRowId: number, lines: readonly EndpointContextLine[]): Promise<EndpointContextImportResult> {
    const context = await this.effective(orgRowId);
    // Turns as bulkUpdate's: every line is checked against the context read above before the first write, and written idempotently.
    const slices = new TimeSlices(() => undefined);
    // Built only for a file that names an endpoint by hostname: built for every file, it held the
    // thread 40 ms on `large` in the turn of the first write (a file of 1,000 ids, profiled).
    let byHostname: Map<string, string[]> | undefined;
    const namedOn = new Map<string, number>();
    const changes: ContextChange[] = [];
    for (const [index, line] of lines.entries()) {
      if (index % 1_000 === 999) await slices.pause();
      const ids = line.id !== undefined ? [line.id.toLowerCase()] : ((byHostname ??= await endpointsByHostname(context, slices)).get(line.hostname!.toLowerCase()) ?? []);
      if (ids.length === 0) throw new EndpointContextLineError(line.line, `no endpoint has the hostname "${line.hostname}"`);
      for (const id of ids) {
        const earlier = namedOn.get(id);
        if (earlier !== undefined) throw new EndpointContextLineError(line.line, `endpoint ${id} is already set on line ${earlier}`);
        namedOn.set(id, line.line);
        const before = context.explicitOf(id);
        const after: ExplicitContext = { tags: sortedTags(line.tags ?? before.tags), criticality: line.criticality ?? before.criticality };
        if (!sameContext(before, after)) changes.push({ endpointId: id, before, after });
      }
    }
    await this.writeChanges(orgRowId, changes, slices);
    return { lines: lines.length, endpoints: namedOn.size, changed: changes.length };
  }

  /**
   * Gives an organization without any endpoint context (no tag, criticality or rule) the rules
   * and the set context of a generated dataset, in one write; whether it did. Rules are made a
   * millisecond apart, so that their order is the order given.
   */
  seed(orgRowId: number, rules: readonly CreateTagRuleBody[], endpoints: readonly (ExplicitContext & { id: string })[]): boolean {
    if (this.records.holdsAny(orgRowId)) return false;
    rules.forEach((rule) => ruleTest(rule.conditions));
    const start = this.now();
    this.write(() => {
      rules.forEach((rule, index) => {
        const at = new Date(start + index).toISOString();
        this.records.putRule(orgRowId, { id: crypto.randomUUID(), tag: rule.tag, conditions: rule.conditions, note: rule.note, created_at: at, updated_at: at });
      });
      const nothing: ExplicitContext = { tags: [], criticality: 'normal' };
      this.records.put(
        orgRowId,
        endpoints.map(({ id, tags, criticality }) => ({ endpointId: id, before: nothing, after: { tags: sortedTags(tags), criticality } })),
      );
    });
    return true;
  }

  /** The organization's tag rules, oldest first, each with the endpoints it tags now. */
  async listRules(orgRowId: number): Promise<TagRule[]> {
    const context = await this.effective(orgRowId);
    return context.rules.map((rule) => ({ ...rule, endpoints: context.ruleCount(rule.id) }));
  }

  /** Makes a tag rule; throws TagRuleConditionError for a condition that does not parse, EndpointContextRuleError past 200 rules. */
  async createRule(orgRowId: number, body: CreateTagRuleBody): Promise<TagRule> {
    ruleTest(body.conditions);
    if (this.records.rules(orgRowId).length >= endpointTagLimits.rulesPerOrganization) {
      throw new EndpointContextRuleError(`An organization holds at most ${endpointTagLimits.rulesPerOrganization} tag rules`);
    }
    const at = new Date(this.now()).toISOString();
    const rule: TagRuleRecord = { id: crypto.randomUUID(), tag: body.tag, conditions: body.conditions, note: body.note, created_at: at, updated_at: at };
    this.write(() => this.records.putRule(orgRowId, rule));
    return (await this.ruleOf(orgRowId, rule.id))!;
  }

  /** Changes a rule's tag, conditions or note; undefined when the organization has no such rule. */
  async updateRule(orgRowId: number, ruleId: string, body: UpdateTagRuleBody): Promise<TagRule | undefined> {
    const held = this.records.rules(orgRowId).find((rule) => rule.id === ruleId.toLowerCase());
    if (!held) return undefined;
    if (body.conditions) ruleTest(body.conditions);
    const rule: TagRuleRecord = { ...held, ...body, updated_at: new Date(this.now()).toISOString() };
    this.write(() => this.records.putRule(orgRowId, rule));
    return this.ruleOf(orgRowId, rule.id);
  }

  /** Removes a rule (its tags leave the endpoints at once); whether there was one. */
  deleteRule(orgRowId: number, ruleId: string): boolean {
    if (!this.records.rules(orgRowId).some((rule) => rule.id === ruleId.toLowerCase())) return false;
    return this.write(() => this.records.deleteRule(orgRowId, ruleId.toLowerCase()));
  }

  /**
   * Writes endpoints' changes {@link changesPerWrite} endpoints per write, each durable, giving
   * other requests a turn between them as `slices` says: one write of 20,000 endpoints held the thread that
   * answers for 100 to 230 ms. Each endpoint's change is whole within one write; a write of
   * another request between two of them is kept for the endpoints it changed that these do
   * not (the rows are written as differences, idempotently). A write that fails ends it, saying
   * how many endpoints were changed before.
   */
  private async writeChanges(orgRowId: number, unordered: readonly ContextChange[], slices: TimeSlices): Promise<void> {
    // In key order, each write's rows are neighbours on the same pages: in the selection's order
    // every write touched pages all over the table, and 20,000 endpoints wrote 8 MiB, not 2.
    const changes = [...unordered].sort((a, b) => (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0));
    for (let start = 0; start < changes.length; start += changesPerWrite) {
      await slices.pause();
      try {
        this.write(() => this.records.put(orgRowId, changes.slice(start, start + changesPerWrite)));
      } catch (error) {
        if (start === 0) throw error;
        throw new Error(`${start} of the ${changes.length} endpoints were changed before a write failed: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  private async ruleOf(orgRowId: number, ruleId: string): Promise<TagRule | undefined> {
    return (await this.listRules(orgRowId)).find((rule) => rule.id === ruleId);
  }
}

/** The ids of the endpoints the organization shows, by lowercase hostname (several may share one), a slice at a time. */
async function endpointsByHostname(context: EffectiveEndpointContext, slices: TimeSlices): Promise<Map<string, string[]>> {
  const byHostname = new Map<string, string[]>();
  let index = 0;
  for (const [id, hostname] of context.hostnames) {
    if (++index % 1_000 === 0) await slices.pause();
    const key = hostname.toLowerCase();
    const ids = byHostname.get(key);
    if (ids) ids.push(id);
    else byHostname.set(key, [id]);
  }
  return byHostname;
}

/** Tags in the order they are stored and answered. */
function sortedTags(tags: readonly string[]): string[] {
  return [...tags].sort(compareTags);
}
