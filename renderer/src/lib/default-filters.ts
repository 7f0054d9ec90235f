import type { ListFilters } from '../api/list-pages';

/** A filter's value in the URL that lifts the view's default of it (`status=any`: every status). */
export const anyValue = 'any';

/**
 * The view's filters with its default ones (`defaults`) where the URL names none, and without
 * those the URL lifts with {@link anyValue}: what the view shows, and asks the server for.
 */
export function withDefaultFilters(filters: ListFilters, defaults: Readonly<Record<string, string | undefined>>): ListFilters {
  const applied = { ...filters };
  for (const [name, value] of Object.entries(defaults)) {
    if (applied[name] === anyValue) delete applied[name];
    else if (!applied[name] && value) applied[name] = value;
  }
  return applied;
}
