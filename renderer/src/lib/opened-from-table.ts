import { useLocation, useNavigate } from 'react-router';
import { useShortcut } from './keyboard';

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

/**
 * Escape on a detail page goes back: to the table the page was opened from (the previous
 * history entry, so with its filters, scroll position and selected row), or else to `list`.
 */
export function useEscapeBack(list: string): void {
  const navigate = useNavigate();
  const location = useLocation();
  useShortcut('Escape', () => void (openedFromTable(location.state) ? navigate(-1) : navigate(list)));
}
