import type { CollectionPath } from '../api/collections';

/** The console's URLs, built in one place so that views link to each other consistently. */
export const paths = {
  dashboard: (slug: string) => `/orgs/${encodeURIComponent(slug)}`,
  /** Every organization, with the replicas' syncs; shown in the frame of the organization `slug`. */
  organizations: (slug: string) => `/orgs/${encodeURIComponent(slug)}/organizations`,
  list: (slug: string, collection: CollectionPath, filters: Record<string, string> = {}) => {
    const search = new URLSearchParams(filters).toString();
    return `/orgs/${encodeURIComponent(slug)}/${collection}${search ? `?${search}` : ''}`;
  },
  item: (slug: string, collection: CollectionPath, id: string) => `/orgs/${encodeURIComponent(slug)}/${collection}/${encodeURIComponent(id)}`,
};
