import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';

/**
 * Gives each cell of `row` (a `<tr>` of `<td>`s) the `data-label` of its column, which the
 * stylesheet shows above the value when the table becomes a list on phones (styles.css "Table").
 */
function labelled(row: ReactNode, columns: readonly string[]): ReactNode {
  if (!isValidElement<{ children?: ReactNode }>(row)) return row;
  let index = 0;
  const cells = Children.map(row.props.children, (cell) => {
    if (!isValidElement(cell)) return cell;
    const column = columns[index++];
    return column && !(cell.props as Record<string, unknown>)['data-label']
      ? cloneElement(cell as ReactElement<Record<string, unknown>>, { 'data-label': column })
      : cell;
  });
  return cloneElement(row, undefined, cells);
}

/**
 * A list shown as a table with column headers (a labelled list under 640 px), or `empty` when it
 * has no items (nothing while `items` is still loading). `row` renders one `<tr>` per item.
 */
export function ItemTable<T>({
  items,
  empty,
  columns,
  row,
}: {
  items: readonly T[] | undefined;
  empty: ReactNode;
  columns: string[];
  row: (item: T) => ReactNode;
}) {
  if (!items) return null;
  if (items.length === 0) return typeof empty === 'string' ? <p className="muted">{empty}</p> : <>{empty}</>;
  return (
    <div className="table-wrap">
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
        <tbody>{items.map((item) => labelled(row(item), columns))}</tbody>
      </table>
    </div>
  );
}
