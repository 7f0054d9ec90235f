import { useCallback, useEffect, useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router';

/** What {@link useUrlSearch} gives: the query as rendered, and a change to it. */
export interface UrlSearch {
  search: URLSearchParams;
  /** Changes the query the last change asked for (not the one last rendered), then navigates to it. */
  changeSearch: (change: (next: URLSearchParams) => void, options?: NavigateOptions) => void;
}

/**
 * The URL's query, changed from the latest query asked for. React Router's functional
 * `setSearchParams` hands its update the query of the last render, and the router renders a
 * change in a transition, after the route's loader: a second change made before that render (a
 * text filter applied with Enter, then a select chosen at once) would start from the old query
 * and drop the first. A navigation from elsewhere (Back, a link) replaces what was asked once it
 * renders.
 */
export function useUrlSearch(): UrlSearch {
  const [search, setSearch] = useSearchParams();
  const asked = useRef(search);
  useEffect(() => {
    asked.current = search;
  }, [search]);
  const changeSearch = useCallback(
    (change: (next: URLSearchParams) => void, options?: NavigateOptions) => {
      const next = new URLSearchParams(asked.current);
      change(next);
      asked.current = next;
      setSearch(next, options);
    },
    [setSearch],
  );
  return { search, changeSearch };
}

/** Sets `name` to `value` in `search`, or removes it when `value` is empty. */
export function setOrRemove(search: URLSearchParams, name: string, value: string): void {
  if (value) search.set(name, value);
  else search.delete(name);
}
