import type { TableSort } from './virtual-table';

/**
 * A column of a {@link TableHead}: its name, or its name with whether it holds figures (aligned
 * right, as its cells) and the sort key it orders the table by, when it can.
 */
export type HeadColumn = string | { header: string; figures?: true; sortKey?: string };

/** Columns of figures, by their names. */
export const figureColumns = (headers: readonly string[]): HeadColumn[] => headers.map((header) => ({ header, figures: true }));

/**
 * The header row of every plain table: its column names, then (with `actions`) a last column of
 * row actions, named for screen readers only. Its cells must be the rows' cells, one for one: a
 * header cell more and the rows' separators stop short of the table's edge. With `onSort`, a
 * column with a sort key is a button that asks for it, and tells the current order (`sort`)
 * through `aria-sort`, as a `VirtualTable`'s grid heads its columns.
 */
export function TableHead({
  columns,
  actions = false,
  sort,
  onSort,
}: {
  columns: readonly HeadColumn[];
  actions?: boolean;
  sort?: TableSort;
  onSort?: (key: string) => void;
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          if (typeof column === 'string') {
            return (
              <th scope="col" key={column}>
                {column}
              </th>
            );
          }
          const { header, figures, sortKey } = column;
          const sorted = sortKey !== undefined && sortKey === sort?.key;
          const sortable = sortKey !== undefined && onSort !== undefined;
          return (
            <th
              scope="col"
              key={header}
              className={figures ? 'num' : undefined}
              aria-sort={sortable ? (sorted ? (sort!.descending ? 'descending' : 'ascending') : 'none') : undefined}
            >
              {sortable ? (
                <button type="button" className="virtual-table__sort" onClick={() => onSort(sortKey)}>
                  {header}
                  <span aria-hidden="true" className="virtual-table__sort-mark">
                    {sorted ? (sort!.descending ? '▼' : '▲') : ''}
                  </span>
                </button>
              ) : (
                header
              )}
            </th>
          );
        })}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
