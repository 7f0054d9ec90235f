import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName } from '../../../contracts/collections';
import { type SavedViewKind, savedViewSection } from '../../../contracts/console/saved-view-basics';

const orgPath = (slug: string) => `/orgs/${encodeURIComponent(slug)}`;

/** The console's URLs, built in one place so that views link to each other consistently. */
export const paths = {
  dashboard: orgPath,
  /** Every organization, with the replicas' syncs; shown in the frame of the organization `slug`. */
  organizations: (slug: string) => `${orgPath(slug)}/organizations`,
  /** A view of the sidebar, by its section (`consoleViews`); the dashboard's is empty. */
  view: (slug: string, section: string) => (section ? `${orgPath(slug)}/${section}` : orgPath(slug)),
  list: (slug: string, collection: CollectionName, filters: Record<string, string> = {}) => {
    const search = new URLSearchParams(filters).toString();
    return `${orgPath(slug)}/${collectionBasics[collection].path}${search ? `?${search}` : ''}`;
  },
  item: (slug: string, collection: CollectionName, id: string) => `${orgPath(slug)}/${collectionBasics[collection].path}/${encodeURIComponent(id)}`,
  /** The software view, with its search and sort. */
  software: (slug: string, search: Record<string, string> = {}) => {
    const text = new URLSearchParams(search).toString();
    return `${orgPath(slug)}/software${text ? `?${text}` : ''}`;
  },
  /** A product of the software view, by the id the software list gives it. */
  softwareProduct: (slug: string, productId: string) => `${orgPath(slug)}/software/${encodeURIComponent(productId)}`,
  /** A version of a product, with its installs. */
  softwareVersion: (slug: string, productId: string, versionId: string) =>
    `${orgPath(slug)}/software/${encodeURIComponent(productId)}/versions/${encodeURIComponent(versionId)}`,
  remediationPlan: (slug: string) => `${orgPath(slug)}/remediation-plan`,
  /** The exceptions view, with its state filter and the exception to show (`selected`). */
  exceptions: (slug: string, search: Record<string, string> = {}) => {
    const text = new URLSearchParams(search).toString();
    return `${orgPath(slug)}/exceptions${text ? `?${text}` : ''}`;
  },
  /** The tags and rules view, with the rule to show (`rule`). */
  tags: (slug: string, search: Record<string, string> = {}) => {
    const text = new URLSearchParams(search).toString();
    return `${orgPath(slug)}/tags${text ? `?${text}` : ''}`;
  },
  remediationPerformance: (slug: string) => `${orgPath(slug)}/remediation-performance`,
  /** The organization's saved views. */
  savedViews: (slug: string) => `${orgPath(slug)}/saved-views`,
  /** A saved view opened: its view with its filters. */
  savedView: (slug: string, view: { view: SavedViewKind; query: string }) => {
    const section = savedViewSection(view.view);
    return `${section ? `${orgPath(slug)}/${section}` : orgPath(slug)}${view.query ? `?${view.query}` : ''}`;
  },
  /** The Threat intelligence view; with `cve`, that CVE's EPSS history shown. */
  threatIntelligence: (slug: string, cve?: string) => `${orgPath(slug)}/threat-intelligence${cve ? `?cve=${encodeURIComponent(cve)}` : ''}`,
  /** The browser sessions and script tokens of the data directory (not an organization's); shown in the frame of the organization `slug`. */
  sessions: (slug: string) => `${orgPath(slug)}/sessions`,
};
