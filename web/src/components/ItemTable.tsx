import type { ReactNode } from 'react';

/**
 * A list shown as a table with column headers, or `empty` when it has no items (nothing while
 * `items` is still loading). `row` renders one `<tr>` per item.
 */
export function ItemTable<T>({
  items,
  empty,
  columns,
  row,
}: {
  items: readonly T[] | undefined;
  empty: string;
  columns: string[];
  row: (item: T) => ReactNode;
}) {
  if (!items) return null;
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{items.map(row)}</tbody>
    </table>
  );
}
