import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Column, DataTable } from '../src/data-table.tsx';

interface Camera {
  id: number;
  name: string;
  intervalMin: number;
}

const CAMERAS: Camera[] = [
  { id: 1, name: 'Rapperswil-Seedamm', intervalMin: 5 },
  { id: 2, name: 'Ufenau', intervalMin: 10 },
];

const COLUMNS: Column<Camera>[] = [
  { label: 'Kamera', cell: (camera) => camera.name },
  { label: 'Intervall', cell: (camera) => `${camera.intervalMin} min` },
  { label: 'Aktionen', actions: true, cell: (camera) => <button type="button">Bearbeiten {camera.name}</button> },
];

describe('DataTable', () => {
  afterEach(cleanup);

  it('shows what it is given instead of an empty table, and the table once there are rows', () => {
    const empty = <p>Noch keine Kamera.</p>;
    const { rerender } = render(
      <DataTable caption="Alle Kameras" columns={COLUMNS} rows={[]} rowKey={(c) => String(c.id)} empty={empty} />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Noch keine Kamera.')).toBeTruthy();
    rerender(
      <DataTable caption="Alle Kameras" columns={COLUMNS} rows={CAMERAS} rowKey={(c) => String(c.id)} empty={empty} />,
    );
    expect(screen.getByRole('table', { name: 'Alle Kameras' })).toBeTruthy();
    expect(screen.queryByText('Noch keine Kamera.')).toBeNull();
  });

  it('names the table by its caption, one header per column and one row per item in order', () => {
    render(<DataTable caption="Alle Kameras" columns={COLUMNS} rows={CAMERAS} rowKey={(c) => String(c.id)} />);
    const table = screen.getByRole('table', { name: 'Alle Kameras' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Kamera', 'Intervall', 'Aktionen']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Rapperswil-Seedamm',
      'Ufenau',
    ]);
    expect(within(rows[1] as HTMLElement).getByRole('button', { name: 'Bearbeiten Ufenau' })).toBeTruthy();
  });

  it('labels each cell for the phone layout, except the actions, whose header only screen readers hear', () => {
    render(<DataTable caption="Alle Kameras" columns={COLUMNS} rows={CAMERAS} rowKey={(c) => String(c.id)} />);
    const [name, interval, actions] = within(screen.getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(name?.dataset.label).toBe('Kamera');
    expect(interval?.dataset.label).toBe('Intervall');
    expect(actions?.hasAttribute('data-label')).toBe(false);
    expect(actions?.className).toBe('data-table__actions');
    expect(screen.getByRole('columnheader', { name: 'Aktionen' }).querySelector('.visually-hidden')).not.toBeNull();
  });

  it('marks the rows it is told to', () => {
    render(
      <DataTable
        caption="Alle Kameras"
        columns={COLUMNS}
        rows={CAMERAS}
        rowKey={(c) => String(c.id)}
        highlighted={(c) => c.id === 2}
      />,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.classList.contains('data-table__row--highlighted'))).toEqual([false, true]);
  });

  it('shows the headers of an empty list', () => {
    render(<DataTable caption="Keine Kameras" columns={COLUMNS} rows={[]} rowKey={(c) => String(c.id)} />);
    expect(screen.getAllByRole('row')).toHaveLength(1);
    expect(screen.getAllByRole('columnheader')).toHaveLength(3);
  });
});
