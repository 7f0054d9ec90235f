import type { EndpointCriticality } from '../../../contracts/enums.js';
import { criticalityFactors } from '../../../contracts/risk-score.js';
import type { EndpointColumns } from './coverage-columns.js';
import type { EffectiveEndpointContext } from './effective-endpoint-context.js';

/**
 * Where the figures, coverage and the filters ask for an organization's endpoint context (by its
 * row id), at the data's current version: its writes change that version, so what is derived
 * from it is kept as what is derived from the data. Built in slices: a computation that awaits
 * it calls its checkpoint after, as after any other pause.
 */
export type EndpointContextSource = (orgRowId: number) => Promise<EffectiveEndpointContext>;

/**
 * A filter of the console's views by endpoint context: the endpoints carrying `tag` (explicit
 * or by a rule) and of `criticality`, each when given. Tags compare without case.
 */
export interface EndpointSelection {
  tag?: string | undefined;
  criticality?: EndpointCriticality | undefined;
}

/** Whether a selection names anything to filter by. */
export function selects(selection: EndpointSelection | undefined): selection is EndpointSelection {
  return selection?.tag !== undefined || selection?.criticality !== undefined;
}

/** A key naming the selection, for what is computed from it (empty for none). */
export function selectionKey(selection: EndpointSelection | undefined): string {
  return selects(selection) ? `tag=${selection.tag?.toLowerCase() ?? ''}&criticality=${selection.criticality ?? ''}` : '';
}

/** A test of whether the endpoint of an id is one `selection` keeps, by the context. */
export function endpointTest(context: EffectiveEndpointContext, selection: EndpointSelection): (id: string) => boolean {
  const tagged = selection.tag === undefined ? undefined : context.endpointsWithAnyTag([selection.tag]);
  const { criticality } = selection;
  return (id) => (tagged === undefined || tagged.has(id)) && (criticality === undefined || context.criticalityOf(id) === criticality);
}

/**
 * Per endpoint key of the coverage columns, 1 where `selection` keeps the endpoint: an endpoint
 * the replica does not hold is never kept (it has no context to match).
 */
export function selectedEndpointKeys(endpoints: EndpointColumns, context: EffectiveEndpointContext, selection: EndpointSelection): Uint8Array {
  const selected = endpointTest(context, selection);
  return Uint8Array.from(endpoints.id, (id, key) => (endpoints.hasAgent[key] !== -1 && selected(id) ? 1 : 0));
}

/**
 * Per endpoint key of the coverage columns, the factor its criticality multiplies its findings'
 * risk by (risk-score.ts); undefined when every endpoint is `normal`, so that nothing changes.
 */
export function criticalityFactorsOf(endpoints: EndpointColumns, context: EffectiveEndpointContext): Float64Array | undefined {
  const factors = Float64Array.from(endpoints.id, (id) => criticalityFactors[context.criticalityOf(id)]);
  return factors.every((factor) => factor === criticalityFactors.normal) ? undefined : factors;
}
