import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setOrRemove, useUrlSearch } from '../lib/use-url-search';

const wholeNumber = (value: string | null) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

/** A query's parameters other than the table's position: what names the table's rows and order. */
function withoutPosition(query: string): string {
  const parameters = new URLSearchParams(query);
  parameters.delete('offset');
  parameters.delete('row');
  return parameters.toString();
}

/** What {@link useTableUrl} gives a view with a paged table. */
export interface TableUrl {
  search: URLSearchParams;
  /** Sets one parameter (an empty value removes it); the table starts again from its top. */
  setParam: (name: string, value: string) => void;
  /** The table's first row shown and selected row, as the URL had them. */
  initialTopRow: number | undefined;
  initialActiveRow: number | undefined;
  /**
   * For the table's `onViewChange`: keeps its scroll position and selected row in the URL; the
   * promise settles once the URL holds them.
   */
  onViewChange: (view: { topRow: number; activeRow: number | undefined }) => Promise<void>;
}

/**
 * The URL state of a view with one paged table, as the list views keep theirs: its own
 * parameters (search, sort), its scroll position (`offset`) and selected row (`row`), so that
 * the view can be bookmarked and Back restores where the user was.
 */
export function useTableUrl(): TableUrl {
  const { search, changeSearch } = useUrlSearch();
  const navigate = useNavigate();
  const { pathname, state } = useLocation();
  const rendered = withoutPosition(search.toString());
  const setParam = useCallback(
    (name: string, value: string) =>
      changeSearch((next) => {
        setOrRemove(next, name, value);
        next.delete('offset');
        next.delete('row');
      }),
    [changeSearch],
  );
  const onViewChange = useCallback(
    async ({ topRow, activeRow }: { topRow: number; activeRow: number | undefined }) => {
      // Read the address bar itself: this runs from a timer, and a search may have changed the URL
      // since; or the user left for another view before the view unmounted, whose URL must not
      // get this table's position. Nor must a new order or filter, in the address bar before the
      // table made for it has rendered: the old table's position would open the new one there (a
      // sort just after End showed the new order's last rows).
      if (window.location.pathname !== pathname || withoutPosition(window.location.search) !== rendered) return;
      const current = new URLSearchParams(window.location.search);
      const next = new URLSearchParams(current);
      if (topRow > 0) next.set('offset', String(topRow));
      else next.delete('offset');
      if (activeRow !== undefined) next.set('row', String(activeRow));
      // Awaited: the table opens a row only once its position is in this entry of the history, or
      // the item's page, pushed first, would cancel this replacement (Back would then bring back an
      // older row). The state stays: a table opened from another table still goes back to it.
      if (next.toString() !== current.toString()) await navigate(`?${next.toString()}`, { replace: true, state });
    },
    [navigate, pathname, state, rendered],
  );
  return { search, setParam, initialTopRow: wholeNumber(search.get('offset')), initialActiveRow: wholeNumber(search.get('row')), onViewChange };
}

/** The offset of the page a URL's scroll position falls on, for a loader that fetches it ahead. */
export function anchorPageOffset(search: URLSearchParams, pageSize: number): number {
  return Math.floor((wholeNumber(search.get('offset')) ?? 0) / pageSize) * pageSize;
}
