/**
 * What the technical template adds to a report's section (issue 40): every step of the plan the
 * console computes for the filter's endpoints with the endpoints it touches, and the coverage of
 * the organization's scopes and its gaps, the console's own figures read as they are.
 */
import { collectionSchemas } from '../../contracts/collections.js';
import type { ReportTechnical } from '../../contracts/console/reports.js';
import type { Organization } from '../store/records/organization-records.js';
import type { Store } from '../store/store.js';
import type { ReportFilter } from './report-filter.js';
import { reportSlices } from './report-findings.js';

/** The technical parts of `organization`'s section for `filter`, at `asOf`. */
export async function technicalParts(store: Store, organization: Organization, filter: ReportFilter, asOf: number): Promise<ReportTechnical> {
  const org = organization.rowId;
  const plan = await store.software.plan(org, filter.selection);
  const endpoints = await store.software.planStepEndpoints(org, filter.selection, plan.steps.map((step) => step.product_id));
  const scopeIds: string[] = [];
  for await (const ids of store.console.listAllIds(org, 'scopes', collectionSchemas.scopes.console.parse({ sort: 'name' }), asOf)) scopeIds.push(...ids);
  const scopes: ReportTechnical['scopes'] = [];
  // A pause between scopes on the report's clock: each scope's coverage is sliced on a clock of
  // its own, which a scope done in under a slice never reached, and on `large` the scopes one
  // after another held the thread 500 ms in one turn.
  const slices = reportSlices();
  for (const json of await store.consoleItems.get('scopes', org, scopeIds, asOf)) {
    const scope = JSON.parse(json) as { id: string; name: string; status: string };
    const coverage = await store.coverage.scope(org, scope.id, { limit: 0, offset: 0 });
    if (coverage) scopes.push({ id: scope.id, name: scope.name, status: scope.status, counts: coverage.counts });
    await slices.pause();
  }
  return {
    plan_steps: plan.steps.map(({ rank, product_id, vendor, product, closes }) => ({ rank, vendor, product, closes, endpoints: endpoints.get(product_id) ?? [] })),
    scopes,
    coverage_gaps: (await store.coverage.gaps(org, { limit: 0, offset: 0 })).counts,
  };
}
