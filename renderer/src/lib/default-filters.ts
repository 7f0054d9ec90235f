import { anyValue } from '../../../contracts/console/saved-view-basics';
import type { ListFilters } from '../api/list-pages';

// Where the console's filters read it; the value is the contracts', whose saved views take it too.
export { anyValue };

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
