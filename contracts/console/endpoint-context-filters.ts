/**
 * The filters by an endpoint's local context (tags and criticality, never in /v1), written
 * once: console filters of the endpoints, findings and targets lists (collections.ts applies
 * them to each item's endpoint), and the query of the views built on the figures (software,
 * remediation plan, dashboard, remediation performance), which count only the findings of the
 * endpoints they keep.
 */
import { endpointCriticalities, filterableOsFamilies } from '../enums.js';
import { choiceFilter, tagFilter } from '../list-queries.js';

/** The filters by context, by query parameter. */
export const endpointContextFilters = { tag: tagFilter, criticality: choiceFilter(endpointCriticalities) };

/** The query parameters of a view built on the figures, narrowed to the endpoints the filters by context keep. */
export const endpointContextQueryShape = {
  tag: endpointContextFilters.tag.schema.meta({ description: 'Only the findings and installs of the endpoints with this tag (set on them or given by a tag rule; without case).' }),
  criticality: endpointContextFilters.criticality.schema.meta({ description: 'Only the findings and installs of the endpoints of this criticality.' }),
};

/** The filter by an endpoint's OS family: the endpoints' list's, and the remediation plan's. */
export const osFamilyFilter = choiceFilter(filterableOsFamilies);

/**
 * The query parameters of the remediation plan and its work packages: those by context, and the
 * endpoints' OS family (issue 39: the plan "as filtered (tag, criticality, OS, organization)").
 */
export const planSelectionQueryShape = {
  ...endpointContextQueryShape,
  osFamily: osFamilyFilter.schema.meta({ description: 'Only the findings and installs of the endpoints of this OS family.' }),
};
