import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { setOrRemove, useUrlSearch } from '../lib/use-url-search';
import { findingStatuses } from '../../../contracts/enums';
import type { Scope } from '../../../contracts/scope';
import { scopeCoverageQuery, scopeCoveredFindingsQuery } from '../api/console-queries';
import { StatusBadge } from '../components/badges';
import { CoverageFigures, UnevaluatedNotice } from '../components/coverage-summary';
import { FieldList } from '../components/field-list';
import { FilterBar } from '../components/filter-bar';
import { QueryFrame } from '../components/query-state';
import { VirtualTable } from '../components/virtual-table';
import { formatCounted, formatCvss, formatDateTime } from '../lib/format';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { EndpointLink } from '../components/endpoint-link';
import { DetailFrame } from './detail-frame';
import { findingTable } from './list-definitions';

const list = (values: readonly (string | number)[] | undefined) => (values?.length ? values.join(', ') : null);

/** A scope, its filters, and what it covers in the replica. */
export function ScopeDetail({ slug, id }: { slug: string; id: string }) {
  return (
    <DetailFrame slug={slug} collection="scopes" id={id} title={(s) => s.name}>
      {(s) => (
        <>
          <ScopeFilters slug={slug} scope={s} />
          <ScopeCoverageSection slug={slug} scopeId={s.id} />
        </>
      )}
    </DetailFrame>
  );
}

function ScopeFilters({ slug, scope: s }: { slug: string; scope: Scope }) {
  const { subject_filter: subject, endpoint_filter: endpoint, finding_filter: finding } = s;
  return (
    <FieldList
      fields={[
        ['Status', <StatusBadge key="status" status={s.status} />],
        ['Description', s.description],
        ['Subject types', list(subject.subject_types)],
        ['Vendors', list(subject.vendors)],
        ['Products', list(subject.products)],
        ['CPE patterns', list(subject.cpe_patterns)],
        ['OS families', list(endpoint.os_families)],
        ['Endpoints', endpoint.endpoint_ids?.length ? <ScopeEndpoints key="endpoints" slug={slug} ids={endpoint.endpoint_ids} /> : null],
        ['Agent', endpoint.has_agent === undefined ? null : endpoint.has_agent ? 'With agent' : 'Without agent'],
        ['Endpoint tags', list(endpoint.tags)],
        ['Finding types', list(finding.finding_types)],
        ['Minimum severity', finding.min_severity],
        ['Minimum CVSS', formatCvss(finding.min_cvss_score)],
        ['KEV only', finding.kev_only === undefined ? null : finding.kev_only ? 'Yes' : 'No'],
        ['Created', formatDateTime(s.created_at)],
        ['Updated', formatDateTime(s.updated_at)],
      ]}
    />
  );
}

/** How many of a scope's endpoints are named, each looked up: the rest are counted. */
const endpointsNamed = 25;

/** The endpoints a scope's filter names by id, by hostname, each a link to its page. */
function ScopeEndpoints({ slug, ids }: { slug: string; ids: readonly string[] }) {
  const rest = ids.length - endpointsNamed;
  return (
    <ul className="inline-list" aria-label="Endpoints of the filter">
      {ids.slice(0, endpointsNamed).map((id) => (
        <li key={id}>
          <EndpointLink slug={slug} id={id} />
        </li>
      ))}
      {rest > 0 ? <li title={ids.slice(endpointsNamed).join('\n')}>and {formatCounted(rest, 'more endpoint')}</li> : null}
    </ul>
  );
}

function ScopeCoverageSection({ slug, scopeId }: { slug: string; scopeId: string }) {
  const coverage = useQuery(scopeCoverageQuery(slug, scopeId));
  const { search, changeSearch } = useUrlSearch();
  const navigate = useNavigate();
  const status = search.get('status') ?? '';
  const filters: Record<string, string> = status ? { status } : {};
  const pageQuery = useCallback(
    (offset: number) => scopeCoveredFindingsQuery(slug, scopeId, status ? { status } : {}, offset),
    [slug, scopeId, status],
  );
  return (
    <section className="related" aria-labelledby="coverage-title">
      <h2 id="coverage-title">Coverage</h2>
      <p className="hint">
        The findings of this organization that the scope&apos;s filters select, evaluated on the local replica.
      </p>
      <QueryFrame query={coverage} what="coverage">
        {(data) => (
          <>
            <UnevaluatedNotice criteria={data.unevaluated} />
            <CoverageFigures counts={data.counts} label="Covered findings" />
            <FilterBar
              slug={slug}
              controls={{ status: { kind: 'choice', label: 'Status', values: findingStatuses } }}
              values={filters}
              onChange={(name, value) => changeSearch((next) => setOrRemove(next, name, value))}
            />
            <VirtualTable
              key={status}
              label="Covered findings"
              {...findingTable(filters)}
              pageQuery={pageQuery}
              onOpen={(finding) => navigate(paths.item(slug, 'findings', finding.id), openFromTable)}
              emptyMessage="This scope covers no findings."
            />
          </>
        )}
      </QueryFrame>
    </section>
  );
}
