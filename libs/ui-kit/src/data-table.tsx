import type { ReactNode } from 'react';
import './data-table.css';

export interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  /** The actions column: no label on phones. */
  actions?: boolean;
}

interface DataTableProps<Row> {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Marks a row, e.g. the user acted as. */
  highlighted?: (row: Row) => boolean;
  /** What stands instead of the table when there are no rows; without it an empty table shows. */
  empty?: ReactNode;
}

/** A plain table on wide screens; on phones each row becomes a card that labels its cells. */
export function DataTable<Row>({ caption, columns, rows, rowKey, highlighted, empty }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return empty;
  return (
    <table className="data-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col">
              {column.actions ? <span className="visually-hidden">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={highlighted?.(row) ? 'data-table__row--highlighted' : undefined}>
            {columns.map((column) => (
              <td
                key={column.label}
                data-label={column.actions ? undefined : column.label}
                className={column.actions ? 'data-table__actions' : undefined}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
