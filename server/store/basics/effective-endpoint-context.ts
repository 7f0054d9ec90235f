import { derivedValue } from '../derived/change-kinds.js';
import type { TimeSlices } from '../derived/time-slices.js';
import { type EndpointTag, type EndpointTagCount, type TagSource, tagKey } from '../../../contracts/console/endpoint-context.js';
import { type EndpointCriticality, defaultEndpointCriticality, endpointCriticalities, endpointTagLimits } from '../../../contracts/enums.js';
import type { ExplicitContext, TagRuleRecord } from './endpoint-context-records.js';
import { type EndpointFacts, ruleTest } from './tag-rule-conditions.js';

/** What tags, criticality and tag rules give an organization's endpoints: read from its inventory, its row and its endpoint context. */
export const effectiveEndpointContext = derivedValue('endpoint context', ['inventory', 'organizations', 'endpoint-context']);

/** One endpoint's context: its tags with their sources, what is set on it, and whether the organization shows it now. */
export interface EndpointContextEntry {
  /** Explicit tags first, then rule tags by rule age, up to 32; the answer sorts them. */
  tags: EndpointTag[];
  explicit: ExplicitContext;
  held: boolean;
}

const nothingSet: ExplicitContext = { tags: [], criticality: defaultEndpointCriticality };
/** Endpoints taken in between two looks at the time slice: a few milliseconds with a few rules. */
const endpointsPerPause = 128;

/**
 * The context of an organization's endpoints at one version of the data: explicit tags and
 * criticality, and the tags its rules give to the endpoints it shows now, applied at read time
 * (so an endpoint a sync brings is tagged with no write). Built by EndpointContext and kept
 * until the next write ({@link build}). Tags are keyed by their lower case (`tagKey`).
 */
export class EffectiveEndpointContext {
  /** Entries of the endpoints with a tag or a criticality set; every other endpoint has none and is `normal`. */
  private readonly entries = new Map<string, EndpointContextEntry>();
  /** Tag key → the ids of the endpoints shown now that carry it. */
  private readonly byTag = new Map<string, Set<string>>();
  /** Tag key → the ids of the endpoints shown now it is set on. */
  private readonly explicitByTag = new Map<string, Set<string>>();
  /** Tag key → the ids of the endpoints shown now a rule gives it to. */
  private readonly ruleByTag = new Map<string, Set<string>>();
  /** Tag key → how the tag is shown: the oldest rule's spelling, else the first explicit one in sort order. */
  private readonly spellings = new Map<string, string>();
  /** Endpoint id → hostname, of every endpoint shown now: whether the organization shows an id, and by what name. */
  readonly hostnames = new Map<string, string>();
  /** OS family → the ids of the endpoints shown now that report it: the plan's filter by OS family (issue 39). */
  private readonly byOsFamily = new Map<string, Set<string>>();
  /** Rule id → the endpoints shown now it tags. */
  private readonly ruleCounts = new Map<string, number>();
  private readonly criticalityCounts: Record<EndpointCriticality, number>;
  /** Whether the organization has any tag set (on any endpoint id) or any rule: where not, tag filters cannot be evaluated. */
  readonly hasTags: boolean;

  /** Per rule, in the rules' order, its test of an endpoint. */
  private readonly tests: ((endpoint: EndpointFacts) => boolean)[];

  /**
   * The context of the endpoints `shown` gives, a chunk at a time, with what is set on endpoint
   * ids (`explicit`) and the organization's rules, pausing as `slices` says (other requests get
   * a turn) between chunks and within them.
   */
  static async build(
    shown: AsyncIterable<readonly EndpointFacts[]>,
    explicit: ReadonlyMap<string, ExplicitContext>,
    rules: readonly TagRuleRecord[],
    slices: TimeSlices,
  ): Promise<EffectiveEndpointContext> {
    const context = new EffectiveEndpointContext(explicit, rules);
    for await (const chunk of shown) {
      // Within a chunk too: a chunk of 1,024 endpoints and their rules held the thread 40 to 60 ms
      // a turn when the context was built again after a tag on 1,000 endpoints (large, load 4, profiled).
      for (const [index, endpoint] of chunk.entries()) {
        if (index % endpointsPerPause === endpointsPerPause - 1) await slices.pause();
        context.addShown(endpoint);
      }
    }
    context.addNotShown();
    return context;
  }

  private constructor(
    private readonly explicit: ReadonlyMap<string, ExplicitContext>,
    readonly rules: readonly TagRuleRecord[],
  ) {
    this.hasTags = rules.length > 0 || [...explicit.values()].some((context) => context.tags.length > 0);
    this.criticalityCounts = Object.fromEntries(endpointCriticalities.map((criticality) => [criticality, 0])) as Record<EndpointCriticality, number>;
    this.tests = rules.map((rule) => {
      this.ruleCounts.set(rule.id, 0);
      if (!this.spellings.has(tagKey(rule.tag))) this.spellings.set(tagKey(rule.tag), rule.tag);
      try {
        return ruleTest(rule.conditions);
      } catch {
        return () => false; // Checked when written: a rule stored by another version that no longer compiles tags nothing.
      }
    });
  }

  /** Takes in an endpoint the organization shows: its explicit tags, its rules' tags, its criticality. */
  private addShown(endpoint: EndpointFacts): void {
    this.hostnames.set(endpoint.id, endpoint.hostname);
    add(this.byOsFamily, endpoint.os_family, endpoint.id);
    const set = this.explicit.get(endpoint.id) ?? nothingSet;
    const tags = new Map<string, EndpointTag>();
    for (const tag of set.tags) tags.set(tagKey(tag), { tag, sources: [{ kind: 'explicit' }] });
    this.rules.forEach((rule, index) => {
      if (!this.tests[index]!(endpoint)) return;
      const key = tagKey(rule.tag);
      const source: TagSource = { kind: 'rule', rule_id: rule.id };
      const held = tags.get(key);
      if (held) held.sources.push(source);
      else if (tags.size < endpointTagLimits.tagsPerEndpoint) tags.set(key, { tag: rule.tag, sources: [source] });
      else return;
      add(this.ruleByTag, key, endpoint.id);
      this.ruleCounts.set(rule.id, this.ruleCounts.get(rule.id)! + 1);
    });
    this.criticalityCounts[set.criticality]++;
    if (tags.size === 0 && set.criticality === defaultEndpointCriticality) return;
    this.entries.set(endpoint.id, { tags: [...tags.values()], explicit: set, held: true });
    for (const [key, tag] of tags) {
      add(this.byTag, key, endpoint.id);
      if (tag.sources[0]!.kind === 'explicit') add(this.explicitByTag, key, endpoint.id);
    }
  }

  /** Once every shown endpoint is in: what is set on ids the organization does not show now, and the set tags' spellings. */
  private addNotShown(): void {
    for (const [id, set] of this.explicit) {
      if (!this.entries.has(id)) this.entries.set(id, { tags: set.tags.map((tag) => ({ tag, sources: [{ kind: 'explicit' }] })), explicit: set, held: false });
    }
    const explicitSpellings = [...this.explicit.values()].flatMap((set) => set.tags).sort();
    for (const tag of explicitSpellings) if (!this.spellings.has(tagKey(tag))) this.spellings.set(tagKey(tag), tag);
  }

  /** The endpoint's tags with their sources, sorted case-insensitively; none for an endpoint without. */
  tagsOf(endpointId: string): EndpointTag[] {
    const tags = this.entries.get(endpointId)?.tags ?? [];
    return [...tags].sort((a, b) => compareTags(a.tag, b.tag));
  }

  /** What is set on the endpoint (tags as spelt, criticality). */
  explicitOf(endpointId: string): ExplicitContext {
    return this.entries.get(endpointId)?.explicit ?? nothingSet;
  }

  /** The endpoint's criticality: `normal` unless set. */
  criticalityOf(endpointId: string): EndpointCriticality {
    return this.entries.get(endpointId)?.explicit.criticality ?? defaultEndpointCriticality;
  }

  /** The ids of the endpoints shown now that carry the tag (any case), explicit or from a rule. */
  endpointsWithTag(tag: string): ReadonlySet<string> {
    return this.byTag.get(tagKey(tag)) ?? noIds;
  }

  /** The ids of the endpoints shown now that carry any of the tags. */
  endpointsWithAnyTag(tags: readonly string[]): ReadonlySet<string> {
    if (tags.length === 1) return this.endpointsWithTag(tags[0]!);
    const ids = new Set<string>();
    for (const tag of tags) for (const id of this.endpointsWithTag(tag)) ids.add(id);
    return ids;
  }

  /** The ids of the endpoints shown now whose OS family is `family`. */
  endpointsOfOsFamily(family: string): ReadonlySet<string> {
    return this.byOsFamily.get(family) ?? noIds;
  }

  /** Every endpoint id with a tag or a criticality set, shown now or not, with its entry. */
  entriesWithContext(): ReadonlyMap<string, EndpointContextEntry> {
    return this.entries;
  }

  /** How the organization shows a tag (the spelling of its oldest rule, else the first set one), or undefined for a tag it has not. */
  spellingOf(tag: string): string | undefined {
    return this.spellings.get(tagKey(tag));
  }

  /** Every tag of the organization with its counts over the endpoints shown now, sorted case-insensitively. */
  tagCounts(): EndpointTagCount[] {
    return [...this.spellings]
      .map(([key, tag]) => {
        const endpoints = this.byTag.get(key) ?? noIds;
        const explicit = this.explicitByTag.get(key)?.size ?? 0;
        return { tag, endpoints: endpoints.size, explicit, from_rules: this.ruleByTag.get(key)?.size ?? 0 };
      })
      .sort((a, b) => compareTags(a.tag, b.tag));
  }

  /** The endpoints shown now at each criticality. */
  criticalities(): Record<EndpointCriticality, number> {
    return { ...this.criticalityCounts };
  }

  /** How many endpoints shown now a rule tags. */
  ruleCount(ruleId: string): number {
    return this.ruleCounts.get(ruleId) ?? 0;
  }
}

const noIds: ReadonlySet<string> = new Set();

function add(map: Map<string, Set<string>>, key: string, id: string): void {
  const ids = map.get(key);
  if (ids) ids.add(id);
  else map.set(key, new Set([id]));
}

/** Tags in case-insensitive order, then by spelling. */
export function compareTags(a: string, b: string): number {
  const byKey = tagKey(a) < tagKey(b) ? -1 : tagKey(a) > tagKey(b) ? 1 : 0;
  return byKey || (a < b ? -1 : a > b ? 1 : 0);
}
