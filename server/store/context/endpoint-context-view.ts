import type { EndpointCriticality } from '../../../contracts/enums.js';

/**
 * What the figures read of an organization's endpoint context (tags, criticality; rules
 * applied), as EffectiveEndpointContext (endpoint-context.ts) gives it at one version of the
 * data: coverage evaluates scopes' tag filters with it, the exposure figures weigh risk by
 * criticality, and the console's filters by tag and criticality pick endpoints. Its writes
 * change the data's version, so what is derived from it is kept as what is derived from the data.
 */
export interface EndpointContextView {
  /** Whether the organization has any tag set or any tag rule. */
  readonly hasTags: boolean;
  /** The endpoint's tags (set on it or given by a rule), sorted without case. */
  tagsOf(endpointId: string): readonly { tag: string }[];
  /** The endpoint's criticality; `normal` unless set. */
  criticalityOf(endpointId: string): EndpointCriticality;
  /** Every tag of the organization with the endpoints shown now that carry it, sorted without case. */
  tagCounts(): readonly { tag: string; endpoints: number }[];
  /** The ids of the endpoints shown now that carry any of the tags (any case), explicit or from a rule. */
  endpointsWithAnyTag(tags: readonly string[]): ReadonlySet<string>;
}

/** Where the figures ask for an organization's endpoint context (by its row id), at the data's current version. */
export type EndpointContextSource = (orgRowId: number) => EndpointContextView;
