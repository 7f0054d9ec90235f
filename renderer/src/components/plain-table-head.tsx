/**
 * The header row of a plain table: its column names, then (unless `actions` is false) a last
 * column of row actions, named for screen readers only. Its cells must be the rows' cells, one for
 * one: a header cell more and the rows' separators stop short of the table's edge.
 */
export function PlainTableHead({ columns, actions = true }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th scope="col" key={column}>
            {column}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
