import type { OwnedCodeAssignment } from '@lakecams/contracts';
import { jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeAdministrationPage } from '../src/pages/code-administration-page.tsx';
import { adminSession, queryOf, renderPage, textResponse } from './admin-test-kit.tsx';

const erika: OwnedCodeAssignment = {
  id: 'c0000000-0000-4000-8000-000000000001',
  userId: 'a0000000-0000-4000-8000-000000000001',
  userName: 'erika1',
  email: 'erika@example.ch',
  code: 'PREMIUM12345',
  feature: 'Premium',
  assignedAt: '2026-11-20T10:00:00.000Z',
};
const hans: OwnedCodeAssignment = {
  ...erika,
  id: 'c0000000-0000-4000-8000-000000000002',
  userId: 'a0000000-0000-4000-8000-000000000002',
  userName: 'hans22',
  email: 'hans@example.ch',
  code: 'REFERER98765',
  feature: 'Referer',
  assignedAt: '2026-11-21T08:30:00.000Z',
};

async function openPage(routes = {}, roles = ['Admin']) {
  let list = [hans, erika];
  const fake = await adminSession({ '/api/Code/GetAllCodes': () => jsonResponse(list), ...routes }, roles);
  renderPage(fake.session, '/edit/codes', <CodeAdministrationPage />);
  return { fake, setList: (next: OwnedCodeAssignment[]) => (list = next) };
}

describe('code administration', () => {
  afterEach(cleanup);

  it("lists every user's redeemed codes with feature, owner and date, each with a remove button", async () => {
    await openPage();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Code', 'Funktion', 'Besitzer', 'Eingelöst am', 'Aktionen']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'REFERER98765',
      'PREMIUM12345',
    ]);
    const erikasRow = rows[1] as HTMLElement;
    expect(within(erikasRow).getByText('Premium')).toBeTruthy();
    expect(within(erikasRow).getByText('erika1')).toBeTruthy();
    expect(within(erikasRow).getByText('erika@example.ch')).toBeTruthy();
    expect(within(erikasRow).getByText(/^20\.11\.2026/)).toBeTruthy();
    expect(within(erikasRow).getByRole('button', { name: 'Entfernen PREMIUM12345 von erika1' })).toBeTruthy();
    expect(screen.getByText('2 eingelöste Codes')).toBeTruthy();
  });

  it("removes a code from the system with its owner's id, after confirmation, and reloads", async () => {
    const { fake, setList } = await openPage({
      '/api/Code/RemoveCodeAssignementFromSystem': () => textResponse('true'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Entfernen PREMIUM12345 von erika1' }));
    const dialog = screen.getByRole('dialog', { name: 'Code entfernen' });
    expect(dialog.textContent).toContain('erika1 verliert die Funktion Premium');
    expect(fake.requestsTo('/api/Code/RemoveCodeAssignementFromSystem')).toHaveLength(0);
    setList([hans]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Entfernen' }));
    });
    const [request] = fake.requestsTo('/api/Code/RemoveCodeAssignementFromSystem');
    expect(request?.method).toBe('DELETE');
    expect(queryOf(request?.url ?? '')).toEqual({ userGuid: erika.userId, codeAssignementGuid: erika.id });
    expect(await screen.findByText('1 eingelöster Code')).toBeTruthy();
    expect(screen.queryByText('PREMIUM12345')).toBeNull();
  });

  it("shows the server's message when a removal fails, and keeps the dialog open", async () => {
    await openPage({
      '/api/Code/RemoveCodeAssignementFromSystem': () =>
        jsonResponse({ statusCode: 404, error: 'Not Found', message: 'Code assignment not found' }, 404),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Entfernen PREMIUM12345 von erika1' }));
    const dialog = screen.getByRole('dialog', { name: 'Code entfernen' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Entfernen' }));
    });
    expect(within(dialog).getByText('Diese Code-Zuweisung gibt es nicht.')).toBeTruthy();
  });

  it('creates codes for a feature and shows them once', async () => {
    const { fake } = await openPage({
      '/api/Code/CreateCodes': () => jsonResponse(['AAAABBBBCCCC', 'DDDDEEEEFFFF']),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Codes erstellen' }));
    const dialog = screen.getByRole('dialog', { name: 'Codes erstellen' });
    fireEvent.change(within(dialog).getByLabelText('Funktion'), { target: { value: 'Referer' } });
    fireEvent.change(within(dialog).getByLabelText('Anzahl'), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Erstellen' }));
    expect(within(dialog).getByText('Eine ganze Zahl von 1 bis 1000')).toBeTruthy();
    expect(fake.requestsTo('/api/Code/CreateCodes')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Anzahl'), { target: { value: '2' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Erstellen' }));
    });
    const [request] = fake.requestsTo('/api/Code/CreateCodes');
    expect(request?.method).toBe('POST');
    expect(queryOf(request?.url ?? '')).toEqual({ feature: 'Referer', count: '2' });
    const created = screen.getByRole('dialog', { name: 'Codes erstellt' });
    expect(
      within(within(created).getByRole('list', { name: 'Neue Codes' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['AAAABBBBCCCC', 'DDDDEEEEFFFF']);
    expect(created.textContent).toContain('Diese 2 Codes sind für Referer bereit.');
    fireEvent.click(within(created).getByRole('button', { name: 'Fertig' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says so when no code is redeemed yet', async () => {
    const { setList } = await openPage();
    // The first list is shown before it changes: a refresh asked for while it loads would be the same load.
    await screen.findByRole('table');
    setList([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Aktualisieren' }));
    expect(await screen.findByText('Noch keine Codes eingelöst.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('is for administrators only', async () => {
    const { fake } = await openPage({}, ['Premium']);
    expect(screen.getByText('Diese Seite ist Administratoren vorbehalten.')).toBeTruthy();
    expect(fake.requestsTo('/api/Code/GetAllCodes')).toHaveLength(0);
  });
});
