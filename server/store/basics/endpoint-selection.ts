import type { EndpointCriticality, FilterableOsFamily } from '../../../contracts/enums.js';
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
 * or by a rule), of `criticality` and of the OS family `osFamily` (the remediation plan's and
 * its work packages' filter), each when given. Tags compare without case.
 */
export interface EndpointSelection {
  tag?: string | undefined;
  criticality?: EndpointCriticality | undefined;
  osFamily?: FilterableOsFamily | undefined;
}

/** Whether a selection names anything to filter by. */
export function selects(selection: EndpointSelection | undefined): selection is EndpointSelection {
  return selection?.tag !== undefined || selection?.criticality !== undefined || selection?.osFamily !== undefined;
}

/** A key naming the selection, for what is computed from it (empty for none). */
export function selectionKey(selection: EndpointSelection | undefined): string {
  if (!selects(selection)) return '';
  const key = `tag=${selection.tag?.toLowerCase() ?? ''}&criticality=${selection.criticality ?? ''}`;
  return selection.osFamily === undefined ? key : `${key}&osFamily=${selection.osFamily}`;
}

/** A test of whether the endpoint of an id is one `selection` keeps, by the context. */
export function endpointTest(context: EffectiveEndpointContext, selection: EndpointSelection): (id: string) => boolean {
  const tagged = selection.tag === undefined ? undefined : context.endpointsWithAnyTag([selection.tag]);
  const ofFamily = selection.osFamily === undefined ? undefined : context.endpointsOfOsFamily(selection.osFamily);
  const { criticality } = selection;
  return (id) =>
    (tagged === undefined || tagged.has(id)) && (ofFamily === undefined || ofFamily.has(id)) && (criticality === undefined || context.criticalityOf(id) === criticality);
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
