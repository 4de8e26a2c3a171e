import type { RefererUser } from '@lakecams/contracts';
import { jsonResponse } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RefererUsersPage } from '../src/pages/referer-users-page.tsx';
import { adminSession, queryOf, renderPage, textResponse } from './admin-test-kit.tsx';

const partner: RefererUser = { id: 4, userEmail: 'erika@example.ch', url: 'https://partner.ch/' };
const users = [
  { id: 'a0000000-0000-4000-8000-000000000001', userName: 'erika1', email: 'erika@example.ch' },
  { id: 'a0000000-0000-4000-8000-000000000002', userName: 'nomail', email: '' },
  { id: 'a0000000-0000-4000-8000-000000000003', userName: 'hans22', email: 'hans@example.ch' },
];

async function openPage(routes = {}, roles = ['Admin']) {
  let list = [partner];
  const fake = await adminSession(
    {
      '/api/Referer/GetRefererUsers': () => jsonResponse(list),
      '/api/Referer/GetUsers/users': () => jsonResponse(users),
      ...routes,
    },
    roles,
  );
  renderPage(fake.session, '/edit/referers', <RefererUsersPage />);
  return { fake, setList: (next: RefererUser[]) => (list = next) };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('referer-user editing', () => {
  afterEach(cleanup);

  it('lists user and url with edit and delete per row', async () => {
    await openPage();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Benutzer', 'URL', 'Aktionen']);
    expect(within(table).getByRole('link', { name: 'https://partner.ch/' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bearbeiten erika@example.ch https://partner.ch/' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Löschen erika@example.ch https://partner.ch/' })).toBeTruthy();
  });

  it('offers only users with an email and requires a url', async () => {
    const { fake, setList } = await openPage({
      '/api/Referer/Set': () =>
        jsonResponse([partner, { id: 5, userEmail: 'hans@example.ch', url: 'https://hans.ch/' }]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Referer hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Referer hinzufügen' });
    await within(dialog).findByRole('option', { name: 'hans@example.ch (hans22)' });
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Bitte wählen', 'erika@example.ch (erika1)', 'hans@example.ch (hans22)']);
    fireEvent.change(field('URL der Seite'), { target: { value: 'hans.ch' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(within(dialog).getByText('User wird benötigt')).toBeTruthy();
    expect(within(dialog).getByText('This is not a url')).toBeTruthy();
    expect(fake.requestsTo('/api/Referer/Set')).toHaveLength(0);

    fireEvent.change(field('Benutzer'), { target: { value: 'hans@example.ch' } });
    fireEvent.change(field('URL der Seite'), { target: { value: 'https://hans.ch/' } });
    setList([]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    });
    expect(fake.requestsTo('/api/Referer/Set')[0]?.body).toEqual({
      userEmail: 'hans@example.ch',
      url: 'https://hans.ch/',
    });
    expect(fake.requestsTo('/api/Referer/Set')[0]?.method).toBe('PUT');
    // The answered list is shown as it is, without another load.
    expect(screen.getByText('2 Referer')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'https://hans.ch/' })).toBeTruthy();
  });

  it('shows the message of a failed save and refreshes the list', async () => {
    const { fake, setList } = await openPage({
      '/api/Referer/Set': () =>
        jsonResponse(
          { statusCode: 409, error: 'Conflict', message: 'erika@example.ch has https://partner.ch/ already' },
          409,
        ),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten erika@example.ch https://partner.ch/' }));
    const dialog = screen.getByRole('dialog', { name: 'Referer bearbeiten' });
    await within(dialog).findByRole('option', { name: 'erika@example.ch (erika1)' });
    expect(field('Benutzer').value).toBe('erika@example.ch');
    const loadsBefore = fake.requestsTo('/api/Referer/GetRefererUsers').length;
    setList([partner, { id: 9, userEmail: 'other@example.ch', url: 'https://other.ch/' }]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    });
    expect(fake.requestsTo('/api/Referer/Set')[0]?.body).toEqual({
      id: 4,
      userEmail: 'erika@example.ch',
      url: 'https://partner.ch/',
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('erika@example.ch hat https://partner.ch/ schon.');
    expect(fake.requestsTo('/api/Referer/GetRefererUsers').length).toBe(loadsBefore + 1);
    expect(await screen.findByText('2 Referer')).toBeTruthy();
  });

  it('deletes after confirmation', async () => {
    const { fake, setList } = await openPage({ '/api/Referer/Delete': () => textResponse('true') });
    fireEvent.click(await screen.findByRole('button', { name: 'Löschen erika@example.ch https://partner.ch/' }));
    setList([]);
    await act(async () => {
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Referer löschen' })).getByRole('button', { name: 'Löschen' }),
      );
    });
    const [request] = fake.requestsTo('/api/Referer/Delete');
    expect(request?.method).toBe('DELETE');
    expect(queryOf(request?.url ?? '')).toEqual({ id: '4' });
    expect(await screen.findByText('0 Referer')).toBeTruthy();
  });

  it('is for administrators only', async () => {
    await openPage({}, []);
    expect(screen.getByText('Diese Seite ist Administratoren vorbehalten.')).toBeTruthy();
  });
});
