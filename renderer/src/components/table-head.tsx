/** A column of a {@link TableHead}: its name, or its name and whether it holds figures (aligned right, as its cells). */
export type HeadColumn = string | { header: string; figures: true };

/** Columns of figures, by their names. */
export const figureColumns = (headers: readonly string[]): HeadColumn[] => headers.map((header) => ({ header, figures: true }));

/**
 * The header row of every plain table: its column names, then (with `actions`) a last column of
 * row actions, named for screen readers only. Its cells must be the rows' cells, one for one: a
 * header cell more and the rows' separators stop short of the table's edge. (A
 * `VirtualTable`'s grid heads its columns itself, with their sort buttons.)
 */
export function TableHead({ columns, actions = false }: { columns: readonly HeadColumn[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th scope="col" key={column}>
              {column}
            </th>
          ) : (
            <th scope="col" key={column.header} className="num">
              {column.header}
            </th>
          ),
        )}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
