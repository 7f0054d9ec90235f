import type { Params, createBrowserRouter } from 'react-router';
import { isPageShortcut } from './keyboard';

/**
 * The navigation options of opening an item from a table (a list, a detail page's related list,
 * the coverage gaps): the item's page then knows that the previous history entry is that table,
 * with its filters, scroll position and selected row, and Escape goes back to it.
 */
export const openFromTable = { state: { fromTable: true } } as const;

/** Whether the page of this history state was opened from a table (see {@link openFromTable}). */
export function openedFromTable(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { fromTable?: unknown }).fromTable === true;
}

/** A route's handle saying where Escape goes from its page when it was not opened from a table. */
interface EscapeBackHandle {
  escapeBack: (params: Params) => string;
}

/**
 * The handle of a detail page's route: Escape on the page goes back to the table it was opened
 * from (the previous history entry, so with its filters, scroll position and selected row), or
 * else to `elsewhere(params)` (its list). {@link listenForEscapeBack} does it.
 */
export function escapeBack(elsewhere: (params: Params) => string): EscapeBackHandle {
  return { escapeBack: elsewhere };
}

const escapeBackOf = (handle: unknown) =>
  typeof handle === 'object' && handle !== null && typeof (handle as Partial<EscapeBackHandle>).escapeBack === 'function' ? (handle as EscapeBackHandle) : undefined;

/**
 * Listens for Escape on the whole document, once for the console, and takes it back from the
 * page the router is at ({@link escapeBack}). It asks the router when the key comes, not the
 * page once mounted: Escape pressed right after Enter opened a row, while the router already
 * stands at the item but the item's page has not rendered yet, goes back too (a listener of
 * the page's own was not there yet, and the key was lost). Answers what stops listening.
 */
export function listenForEscapeBack(router: ReturnType<typeof createBrowserRouter>): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!isPageShortcut(event, 'Escape')) return;
    const { location, matches } = router.state;
    const match = matches.findLast((candidate) => escapeBackOf(candidate.route.handle));
    if (!match) return;
    event.preventDefault();
    void (openedFromTable(location.state) ? router.navigate(-1) : router.navigate(escapeBackOf(match.route.handle)!.escapeBack(match.params)));
  };
  document.addEventListener('keydown', onKeyDown);
  return () => document.removeEventListener('keydown', onKeyDown);
}
