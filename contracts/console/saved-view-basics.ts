/**
 * The values of saved views (../saved-views.ts) the console's bundle reads too: free of zod.
 * A saved view is a console view's own filters (its URL's query) under a name of the
 * organization's choosing.
 */
import { collectionBasics } from '../collection-basics.js';

/**
 * The console views whose filters can be saved, by the section of their URL
 * (`/orgs/<slug>/<section>`; the dashboard's is `dashboard`, its URL's section empty): the
 * dashboard, the collections' lists (their paths, from the registry) and the other views with
 * filters in their URL. Each one's filters are checked by its route's schema (saved-views.ts).
 */
export const savedViewKinds = [
  'dashboard',
  ...(Object.values(collectionBasics).map((collection) => collection.path) as (typeof collectionBasics)[keyof typeof collectionBasics]['path'][]),
  'software',
  'remediation-plan',
  'remediation-performance',
  'exceptions',
] as const;
export type SavedViewKind = (typeof savedViewKinds)[number];

/** The console's path of a view of `kind`, without its query: the dashboard's is the organization's own. */
export function savedViewSection(kind: SavedViewKind): string {
  return kind === 'dashboard' ? '' : kind;
}

/**
 * The view kind of a console section (the part of its path after the organization), or
 * undefined when that view has no filters to save.
 */
export function savedViewKindOf(section: string): SavedViewKind | undefined {
  return savedViewKinds.find((kind) => savedViewSection(kind) === section);
}

/**
 * The parameters of a view's URL that say where its table stands, not what it shows (its scroll
 * position, its selected row, the exception a link selected): a saved view leaves them out.
 */
export const viewPositionParameters = ['offset', 'row', 'selected'] as const;

/** A filter's value in the URL that lifts the view's default of it (`status=any`: every status). */
export const anyValue = 'any';

/** Bounds of a saved view and of a views file. */
export const savedViewLimits = {
  /** Characters of a name. */
  name: 100,
  /** Views an organization holds. */
  perOrganization: 1_000,
  /** Views a file holds. */
  perFile: 1_000,
  /** Bytes of a views file an import reads: 1,000 views of a name and a query, with room. */
  fileBytes: 4 * 1024 * 1024,
} as const;

/** The name and version of a views file's format, which an import checks. */
export const savedViewsFileFormat = { format: 'remediation-console-saved-views', version: 1 } as const;

/**
 * The key two names clash by: a name is unique in its organization without case (in any
 * script) and Unicode normalisation.
 */
export function savedViewNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
