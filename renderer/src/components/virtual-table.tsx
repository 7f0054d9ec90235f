import { type QueryKey, type UseQueryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type ReactNode, type RefObject, memo, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { ListPage } from '../../../contracts/common';
import { pageSize } from '../api/list-pages';
import { QueryError, QueryFrame } from './query-state';
import { formatCount, formatCounted } from '../lib/format';

/** A column of a {@link VirtualTable}, ordered by one of the sort keys `S` when it can be. */
export interface Column<T, S extends string = string> {
  id: string;
  header: string;
  /** A CSS grid track, e.g. `minmax(12rem, 2fr)`. */
  width: string;
  cell: (item: T) => ReactNode;
  /** The list's `sort` key this column orders by, when it can. */
  sortKey?: S;
  /** Its first click orders largest first: a figure whose largest values matter most (a risk score, a count of criticals). */
  descendingFirst?: boolean;
  /** What the column means, when its header alone does not say it: the header's tooltip and accessible description. */
  description?: string;
  /**
   * A second field the column shows under the first (a version under its product): its header
   * under the column's, a sort button of its own when it has a sort key.
   */
  second?: ColumnField<S>;
}

/** A field of a column that shares it with another: its header, and its sort key when it has one. */
export type ColumnField<S extends string = string> = Pick<Column<unknown, S>, 'header' | 'sortKey' | 'descendingFirst' | 'description'>;

/** The fields of a column, each with its header: one, or two when it shares the column. */
export function columnFields<S extends string>(column: Column<never, S>): ColumnField<S>[] {
  return column.second ? [column, column.second] : [column];
}

/** The order a table shows: a column's sort key, either way. */
export interface TableSort {
  key: string;
  descending: boolean;
}

interface VirtualTableProps<T, K extends QueryKey> {
  /** The accessible name of the table. */
  label: string;
  columns: Column<T>[];
  /** The query of the page at `offset` (a multiple of the page size). */
  pageQuery: (offset: number) => UseQueryOptions<ListPage<T>, Error, ListPage<T>, K>;
  /** The row to show first, e.g. from the URL. */
  initialTopRow?: number;
  /** The row to mark as active at first. */
  initialActiveRow?: number;
  /**
   * Told the top row while the user scrolls, and the active row when it changes (debounced); told
   * at once when a row is opened, which waits for the promise it answers (docs/decisions/the-console/a-table-writes-its-position-only-to-its-own-url.md,
   * "A table writes its position only to its own URL").
   */
  onViewChange?: (view: { topRow: number; activeRow: number | undefined }) => void | Promise<void>;
  /** Opens an item: Enter on the active row, or a click. */
  onOpen: (item: T) => void;
  emptyMessage: string;
  /** The current order; with `onSort`, the headers of columns with a sort key become buttons. */
  sort?: TableSort;
  /** Asked to order by a column's sort key (a click or Enter/Space on its header). */
  onSort?: (key: string) => void;
  /** The height of every row, in pixels: taller for a list whose cells hold two lines. */
  rowHeight?: number;
  /**
   * Held by a view across the tables it makes anew (new filters make a new table, by its key):
   * the element whose focus goes to the next table's rows once they show, if it still has it
   * then. A table removed while it had the focus sets the page's body (where the focus falls);
   * the view sets its search box when ↓ is pressed there before any rows show. The router renders
   * a new search in a transition, so ↓ pressed just after Enter reached the old table, or none,
   * and the focus was left nowhere.
   */
  focusHandOff?: RefObject<Element | null>;
}

/** One line of text with the row's padding. */
export const oneLineRow = 32;

/** The keys that move a grid's active row: what the page hands the grid when nothing has the focus. */
const gridMoveKeys = new Set(['ArrowDown', 'ArrowUp', 'j', 'k', 'PageDown', 'PageUp', 'Home', 'End']);

/**
 * A table of a server-paged list of any length: only the rows in view are in the DOM, and
 * the pages they fall on are fetched as the user scrolls (the next one ahead of time). It is
 * one tab stop, an ARIA grid whose rows the arrow keys (and j, k as in a mail or a code
 * review list), Page Up/Down, Home and End move through; Enter opens the active row.
 */
export function VirtualTable<T extends { id: string }, K extends QueryKey>(props: VirtualTableProps<T, K>) {
  // The page of the first row shown: it says how many rows there are.
  const anchor = useQuery(props.pageQuery(Math.floor((props.initialTopRow ?? 0) / pageSize) * pageSize));
  return (
    <QueryFrame query={anchor} what="rows" empty={(page) => page.total === 0 && props.emptyMessage}>
      {(page) => <Grid {...props} total={page.total} />}
    </QueryFrame>
  );
}

/** The grid of a {@link VirtualTable} of `total` rows. */
function Grid<T extends { id: string }, K extends QueryKey>(props: VirtualTableProps<T, K> & { total: number }) {
  const { columns, pageQuery, onOpen, onViewChange, total, rowHeight = oneLineRow } = props;
  // The sticky header row's height (a row and its bottom border): the rows scroll under it.
  const headHeight = rowHeight + 1;
  const queryClient = useQueryClient();
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableId = useId();
  const [activeRow, setActiveRow] = useState<number | undefined>(props.initialActiveRow);
  const initialTop = props.initialTopRow ?? 0;

  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; the virtualizer re-renders this component on scroll itself.
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    initialOffset: initialTop * rowHeight,
    // The body starts under the sticky header, which the virtualizer does not know of: without
    // this, a row moved to from above would stop under the bottom edge, out of sight.
    scrollPaddingEnd: headHeight,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const pageOffsets: number[] = [];
  for (let offset = Math.floor(first / pageSize) * pageSize; offset <= last && offset < total; offset += pageSize) pageOffsets.push(offset);
  const pages = useQueries({ queries: pageOffsets.map((offset) => pageQuery(offset)) });
  const rowAt = (index: number): T | undefined => {
    const page = pages[pageOffsets.indexOf(Math.floor(index / pageSize) * pageSize)];
    return page?.data?.data[index % pageSize];
  };
  const failed = pages.find((page) => page.isError);

  const nextOffset = (Math.floor(last / pageSize) + 1) * pageSize;
  useEffect(() => {
    if (nextOffset < total) void queryClient.prefetchQuery(pageQuery(nextOffset));
  }, [nextOffset, total, pageQuery, queryClient]);

  // The debounced position comes too late when a row is opened: the item's page would be pushed
  // over a URL with an older row (or none), and Back would bring that one back.
  const open = useCallback(
    (index: number, item: T) => {
      const topRow = Math.floor((virtualizer.scrollOffset ?? 0) / rowHeight);
      void Promise.resolve(onViewChange?.({ topRow, activeRow: index }))
        .catch(() => undefined)
        .then(() => onOpen(item));
    },
    [onOpen, onViewChange, virtualizer, rowHeight],
  );
  const activate = useCallback(
    (index: number, item: T | undefined) => {
      setActiveRow(index);
      if (item) open(index, item);
    },
    [open],
  );

  const { focusHandOff } = props;
  useLayoutEffect(() => {
    const grid = scrollRef.current;
    if (!grid || !focusHandOff) return;
    if (focusHandOff.current && document.activeElement === focusHandOff.current) grid.focus();
    focusHandOff.current = null;
    // Run before React removes the grid from the page: the focus is still on it then.
    return () => {
      focusHandOff.current = document.activeElement === grid ? document.body : null;
    };
  }, [focusHandOff]);

  // Keys pressed while nothing has the focus (after a page opens, or a click outside any control)
  // go to the page's first grid, so that j, k and the arrows move its rows without a click first.
  useEffect(() => {
    const onPageKeyDown = (event: globalThis.KeyboardEvent) => {
      const grid = scrollRef.current;
      if (!grid || event.target !== document.body || event.defaultPrevented || !gridMoveKeys.has(event.key)) return;
      if (event.ctrlKey || event.altKey || event.metaKey || document.querySelector('[role=grid]') !== grid) return;
      event.preventDefault();
      grid.focus();
      grid.dispatchEvent(new globalThis.KeyboardEvent('keydown', { key: event.key, shiftKey: event.shiftKey, bubbles: true }));
    };
    document.addEventListener('keydown', onPageKeyDown);
    return () => document.removeEventListener('keydown', onPageKeyDown);
  }, []);

  const topRow = Math.floor(virtualizer.scrollOffset ?? 0) > 0 ? Math.floor((virtualizer.scrollOffset ?? 0) / rowHeight) : 0;
  useEffect(() => {
    if (!onViewChange) return;
    const timer = setTimeout(() => onViewChange({ topRow, activeRow }), 300);
    return () => clearTimeout(timer);
  }, [topRow, activeRow, onViewChange]);

  const moveTo = (index: number) => {
    const row = Math.max(0, Math.min(total - 1, index));
    setActiveRow(row);
    virtualizer.scrollToIndex(row, { align: 'auto' });
  };
  const visibleRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);
  const onKeyDown = (event: KeyboardEvent) => {
    const current = activeRow ?? first - 1;
    // With Ctrl, Alt or Meta a letter is the browser's or the system's.
    const letters = !(event.ctrlKey || event.altKey || event.metaKey);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      ...(letters ? { j: current + 1, k: current - 1 } : {}),
      PageDown: current + visibleRows,
      PageUp: current - visibleRows,
      Home: 0,
      End: total - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      moveTo(moves[event.key]!);
    } else if (event.key === 'Enter' && activeRow !== undefined) {
      const item = rowAt(activeRow);
      if (item) open(activeRow, item);
    }
  };
  const gridTemplateColumns = columns.map((column) => column.width).join(' ');

  return (
    <div className="virtual-table">
      {/* Above the rows: the count is read before the list, and stays in sight however long the view. */}
      <p className="virtual-table__status" aria-live="polite">
        {formatCounted(total, 'row')}
        {activeRow !== undefined ? ` · row ${formatCount(activeRow + 1)} selected (Enter opens it)` : ''}
      </p>
      <div
        ref={scrollRef}
        className="virtual-table__scroll"
        role="grid"
        aria-label={props.label}
        aria-rowcount={total + 1}
        aria-colcount={columns.length}
        aria-activedescendant={activeRow === undefined ? undefined : `${tableId}-row-${activeRow}`}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <div role="rowgroup" className="virtual-table__head">
          <div role="row" aria-rowindex={1} className="virtual-table__row" style={{ gridTemplateColumns, height: rowHeight }}>
            {columns.map((column) => (
              <ColumnHeader key={column.id} column={column} sort={props.sort} onSort={props.onSort} />
            ))}
          </div>
        </div>
        <div role="rowgroup" className="virtual-table__body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((virtualRow) => (
            <VirtualRow<T>
              key={virtualRow.index}
              id={`${tableId}-row-${virtualRow.index}`}
              index={virtualRow.index}
              start={virtualRow.start}
              item={rowAt(virtualRow.index)}
              active={virtualRow.index === activeRow}
              columns={columns}
              gridTemplateColumns={gridTemplateColumns}
              height={rowHeight}
              onActivate={activate}
            />
          ))}
        </div>
      </div>
      {failed?.error ? <QueryError error={failed.error} onRetry={() => void failed.refetch()} /> : null}
    </div>
  );
}

/**
 * A column header: the header of each of its fields, a button where the field sorts; it tells
 * its order through `aria-sort`. Keys pressed on a button stay there: the grid would take Enter,
 * Home or End for its rows.
 */
function ColumnHeader<T>({ column, sort, onSort }: { column: Column<T>; sort: TableSort | undefined; onSort: ((key: string) => void) | undefined }) {
  const fields = columnFields(column);
  const sorted = fields.find((field) => field.sortKey && field.sortKey === sort?.key);
  const direction = sorted && onSort ? (sort!.descending ? 'descending' : 'ascending') : 'none';
  const sortable = !!onSort && fields.some((field) => field.sortKey);
  return (
    <div
      role="columnheader"
      className={`virtual-table__cell${fields.length > 1 ? ' virtual-table__cell--fields' : ''}`}
      aria-sort={sortable ? direction : undefined}
      title={sortable ? undefined : column.description}
    >
      {fields.map((field) => {
        const { sortKey } = field;
        if (!sortKey || !onSort) return fields.length > 1 ? <span key={field.header} title={field.description}>{field.header}</span> : field.header;
        const mark = field === sorted ? (direction === 'ascending' ? '▲' : '▼') : '';
        return (
          <button
            key={field.header}
            type="button"
            className="virtual-table__sort"
            title={field.description}
            onClick={() => onSort(sortKey)}
            // The grid's keys (arrows, j and k, Enter) act on its rows, not from a header; the page's shortcuts (/ and Escape) go on.
            onKeyDown={(event) => {
              if (event.key !== '/' && event.key !== 'Escape') event.stopPropagation();
            }}
          >
            {field.header}
            <span aria-hidden="true" className="virtual-table__sort-mark">
              {mark}
            </span>
          </button>
        );
      })}
    </div>
  );
}

interface VirtualRowProps<T> {
  id: string;
  index: number;
  /** Its offset in the body, in pixels. */
  start: number;
  /** Undefined while its page loads. */
  item: T | undefined;
  active: boolean;
  columns: Column<T>[];
  gridTemplateColumns: string;
  height: number;
  onActivate: (index: number, item: T | undefined) => void;
}

/**
 * One row of the body. Memoized: the table renders on every scroll event, and only the rows
 * that came into view (or whose page arrived, or that became active) need to render again.
 */
const VirtualRow = memo(function VirtualRow<T>(props: VirtualRowProps<T>) {
  const { id, index, start, item, active, columns, gridTemplateColumns, height, onActivate } = props;
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      className={`virtual-table__row${active ? ' is-active' : ''}${item ? '' : ' is-loading'}`}
      style={{ gridTemplateColumns, height, transform: `translateY(${start}px)` }}
      onClick={() => onActivate(index, item)}
    >
      {item ? (
        columns.map((column) => (
          <div role="gridcell" key={column.id} className="virtual-table__cell">
            {column.cell(item)}
          </div>
        ))
      ) : (
        <div role="gridcell" className="virtual-table__cell virtual-table__placeholder">
          Loading…
        </div>
      )}
    </div>
  );
}) as <T>(props: VirtualRowProps<T>) => ReactNode;
