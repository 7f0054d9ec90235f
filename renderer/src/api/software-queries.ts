import { queryOptions } from '@tanstack/react-query';
import type { ListPage } from '../../../contracts/common';
import type {
  RemediationPlan,
  SoftwareDetail,
  SoftwareInstall,
  SoftwareList,
  SoftwareVersion,
  SoftwareVersionDetail,
  TargetUpdate,
} from '../../../contracts/console/software';
import { listSearch } from './console-queries';
import { consoleJson } from './console-fetch';
import { type ListFilters, pageSize } from './list-pages';
import { queryKeys } from './query-keys';

const org = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;
const productPath = (slug: string, productId: string) => `${org(slug)}/software/${encodeURIComponent(productId)}`;
const versionPath = (slug: string, productId: string, versionId: string) => `${productPath(slug, productId)}/versions/${encodeURIComponent(versionId)}`;

// Software figures change only with a sync or a seed, which invalidates the organization's queries.
const staleTime = 60_000;

/** One page of the software list (products), with its search `q` and `sort`; `offset` a multiple of the page size. */
export const softwarePageQuery = (slug: string, filters: ListFilters, offset: number) =>
  queryOptions({
    queryKey: queryKeys.softwarePage(slug, filters, offset, pageSize),
    queryFn: ({ signal }) => consoleJson<SoftwareList>(`${org(slug)}/software${listSearch(filters, { offset, limit: pageSize })}`, { signal }),
    staleTime,
  });

/** A product and all its versions, riskiest first. */
export const softwareProductQuery = (slug: string, productId: string) =>
  queryOptions({
    queryKey: queryKeys.softwareProduct(slug, productId),
    queryFn: ({ signal }) => consoleJson<SoftwareDetail>(productPath(slug, productId), { signal }),
    staleTime,
  });

/**
 * A page of a product's versions for a paged table. The product's answer holds every version:
 * the page is cut from it (fetched once, through the cache), not asked of the server again.
 */
export const softwareVersionsPageQuery = (slug: string, productId: string, offset: number) =>
  queryOptions({
    queryKey: queryKeys.softwareVersionsPage(slug, productId, offset),
    queryFn: async ({ client }): Promise<ListPage<SoftwareVersion>> => {
      const { versions } = await client.fetchQuery(softwareProductQuery(slug, productId));
      return { data: versions.slice(offset, offset + pageSize), total: versions.length, limit: pageSize, offset };
    },
    staleTime,
  });

/** A version with its product and the first page of its installs. */
export const softwareVersionQuery = (slug: string, productId: string, versionId: string) =>
  queryOptions({
    queryKey: queryKeys.softwareVersion(slug, productId, versionId),
    queryFn: ({ signal }) => consoleJson<SoftwareVersionDetail>(versionPath(slug, productId, versionId), { signal }),
    staleTime,
  });

/** An install as a table row: a table's rows have an `id`, here the remediation target's. */
export type SoftwareInstallRow = SoftwareInstall & { id: string };

/** One page of a version's installs (its remediation targets), riskiest first. */
export const softwareInstallsPageQuery = (slug: string, productId: string, versionId: string, offset: number) =>
  queryOptions({
    queryKey: queryKeys.softwareInstallsPage(slug, productId, versionId, offset),
    queryFn: async ({ signal }): Promise<ListPage<SoftwareInstallRow>> => {
      const { installs } = await consoleJson<SoftwareVersionDetail>(`${versionPath(slug, productId, versionId)}${listSearch({}, { offset, limit: pageSize })}`, {
        signal,
      });
      return { ...installs, data: installs.data.map((install) => ({ ...install, id: install.target_id })) };
    },
    staleTime,
  });

/** A remediation target's product and the version to update it to (the newest seen in the fleet, and whether it is clean). */
export const targetUpdateQuery = (slug: string, targetId: string) =>
  queryOptions({
    queryKey: queryKeys.targetUpdate(slug, targetId),
    queryFn: ({ signal }) => consoleJson<TargetUpdate>(`${org(slug)}/remediation-targets/${encodeURIComponent(targetId)}/update-to`, { signal }),
    staleTime,
  });

/** The remediation plan: the products in the order that closes the most open critical or KEV findings for the fewest endpoints. */
export const remediationPlanQuery = (slug: string, filters: ListFilters = {}) =>
  queryOptions({
    queryKey: queryKeys.remediationPlan(slug, filters),
    queryFn: ({ signal }) => consoleJson<RemediationPlan>(`${org(slug)}/remediation-plan${listSearch(filters)}`, { signal }),
    staleTime,
  });

/** The path of the remediation plan's CSV export under /app, with its filters. */
export function remediationPlanCsvPath(slug: string, filters: ListFilters): string {
  return `/app${org(slug)}/export/remediation-plan.csv${listSearch(filters)}`;
}

/** The path of the software list's CSV export under /app, with its search and sort. */
export function softwareCsvPath(slug: string, filters: ListFilters): string {
  return `/app${org(slug)}/export/software.csv${listSearch(filters)}`;
}
