import { NAME_HINT } from '@lakecams/contracts';
import { AUTH_PATHS } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser, testUserSummary } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentLocation, fill, messageOf, renderAccount } from './render-account.tsx';

const assignment = {
  id: '0b7c0f4e-0000-4000-8000-0000000000aa',
  userId: testUser().id,
  userName: 'alice1',
  code: 'PREMIUM-1234',
  feature: 'Premium',
  assignedAt: '2026-11-20T10:00:00.000Z',
};

async function signedInProfile(options: Parameters<typeof createTestSession>[0] = {}) {
  const fake = await createTestSession({
    user: testUser(),
    ...options,
    routes: { '/api/Code/GetCodes': () => jsonResponse([]), ...options.routes },
  });
  renderAccount('/user', fake.session);
  // Loaded, not the "… werden geladen" placeholder.
  await screen.findByText(/^(Sie haben noch keinen Code eingelöst\.|Eingelöste Codes)$/, {}, { timeout: 5000 });
  return fake;
}

const profileCard = () => screen.getByRole('region', { name: 'Profil' });
const codeCard = () => screen.getByRole('region', { name: 'Code einlösen' });
const button = (card: HTMLElement, name: string) => within(card).getByRole('button', { name }) as HTMLButtonElement;

describe('profile page', () => {
  afterEach(cleanup);

  it('sends a visitor without user id to login, coming back afterwards', async () => {
    renderAccount('/user', (await createTestSession()).session);
    expect(currentLocation()).toBe('/login?returnUrl=/user');
  });

  it('shows the profile of the user with hint and last-name counter', async () => {
    await signedInProfile();
    expect((screen.getByLabelText('Vorname') as HTMLInputElement).value).toBe('Alice');
    expect((screen.getByLabelText('Telefon') as HTMLInputElement).value).toBe('044 123 45 67');
    expect(within(profileCard()).getAllByText(NAME_HINT)).toHaveLength(2);
    expect(within(profileCard()).getByText('6/50')).toBeTruthy();
    fill('Nachname', 'Muster-Meier');
    expect(within(profileCard()).getByText('12/50')).toBeTruthy();
  });

  it('shows the roles if there are any', async () => {
    await signedInProfile({ roles: ['Premium'] });
    expect(within(screen.getByRole('list', { name: 'Rollen' })).getByText('Premium')).toBeTruthy();
  });

  it('shows no roles list without roles', async () => {
    await signedInProfile();
    expect(screen.queryByRole('list', { name: 'Rollen' })).toBeNull();
  });

  it('disables Profil speichern while a field is invalid and shows its message; Zurücksetzen restores', async () => {
    await signedInProfile();
    const update = button(profileCard(), 'Profil speichern');
    expect(update.disabled).toBe(false);
    fill('Vorname', '');
    expect(messageOf('Vorname')).toBe('Firstname wird benötigt');
    expect(update.disabled).toBe(true);
    fill('Nachname', 'M');
    expect(messageOf('Nachname')).toBe('Lastname must be longer then 1 characters');
    fill('Telefon', '044');
    expect(messageOf('Telefon')).toBe('This is not a phone number');
    fireEvent.click(button(profileCard(), 'Zurücksetzen'));
    expect((screen.getByLabelText('Vorname') as HTMLInputElement).value).toBe('Alice');
    expect(messageOf('Vorname')).toBeNull();
    expect(update.disabled).toBe(false);
  });

  it('updates the profile and the session user', async () => {
    const fake = await signedInProfile({
      routes: {
        '/api/Register/Update': () => jsonResponse(testUserSummary({ firstName: 'Alicia' })),
      },
    });
    fill('Vorname', 'Alicia');
    await act(async () => {
      fireEvent.click(button(profileCard(), 'Profil speichern'));
    });
    expect(fake.requestsTo('/api/Register/Update')[0]?.body).toEqual({
      firstName: 'Alicia',
      lastName: 'Muster',
      phoneNumber: '044 123 45 67',
    });
    expect(within(profileCard()).getByRole('status').textContent).toContain('gespeichert');
    expect(fake.session.getState().user?.firstName).toBe('Alicia');
    // The saved values are what Reset goes back to.
    fill('Vorname', 'Ali');
    fireEvent.click(button(profileCard(), 'Zurücksetzen'));
    expect((screen.getByLabelText('Vorname') as HTMLInputElement).value).toBe('Alicia');
  });

  it('disables Einlösen while the code is invalid and shows the code messages', async () => {
    await signedInProfile();
    const submit = button(codeCard(), 'Einlösen');
    expect(submit.disabled).toBe(true);
    fill('Code', '');
    expect(messageOf('Code')).toBe('Code wird benötigt.');
    fill('Code', 'ABC');
    expect(messageOf('Code')).toBe('Code must be longer then 5 characters');
    fill('Code', 'X'.repeat(501));
    expect(messageOf('Code')).toBe('Code must be shorter or equal then 500 characters');
    expect(submit.disabled).toBe(true);
    fill('Code', 'PREMIUM-1234');
    expect(submit.disabled).toBe(false);
    fireEvent.click(button(codeCard(), 'Zurücksetzen'));
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('');
  });

  it('redeems a code, then reloads roles and the code assignments', async () => {
    let redeemed = false;
    const fake = await signedInProfile({
      routes: {
        '/api/Code/RegisterCode': () => {
          redeemed = true;
          return jsonResponse(assignment);
        },
        '/api/Code/GetCodes': () => jsonResponse(redeemed ? [assignment] : []),
        [AUTH_PATHS.roles]: () => jsonResponse(redeemed ? ['Premium'] : []),
      },
    });
    fill('Code', 'PREMIUM-1234');
    await act(async () => {
      fireEvent.click(button(codeCard(), 'Einlösen'));
    });
    const [request] = fake.requestsTo('/api/Code/RegisterCode');
    expect(request?.method).toBe('POST');
    expect(new URL(request?.url ?? '', 'http://x').searchParams.get('code')).toBe('PREMIUM-1234');
    // Roles and assignments reload after the code was redeemed.
    expect(await within(await screen.findByRole('list', { name: 'Rollen' })).findByText('Premium')).toBeTruthy();
    expect(await within(codeCard()).findByText('PREMIUM-1234')).toBeTruthy();
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('');
  });

  it('ignores a refused code silently', async () => {
    const fake = await signedInProfile({
      routes: {
        '/api/Code/RegisterCode': () => jsonResponse({ statusCode: 400, message: 'This code is not valid' }, 400),
      },
    });
    fill('Code', 'WRONG-CODE');
    await act(async () => {
      fireEvent.click(button(codeCard(), 'Einlösen'));
    });
    expect(fake.requestsTo('/api/Code/RegisterCode')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows an admin only the admin's own codes, and where everybody's are managed", async () => {
    const others = {
      ...assignment,
      id: '0b7c0f4e-0000-4000-8000-0000000000bb',
      userId: 'a0000000-0000-4000-8000-000000000009',
    };
    await signedInProfile({
      roles: ['Admin'],
      routes: { '/api/Code/GetCodes': () => jsonResponse([{ ...others, code: 'REFERER-9876' }, assignment]) },
    });
    const codes = await screen.findByRole('region', { name: 'Eingelöste Codes' });
    expect(within(codes).getByText('PREMIUM-1234')).toBeTruthy();
    expect(within(codes).queryByText('REFERER-9876')).toBeNull();
    expect(within(codes).getAllByRole('button')).toHaveLength(1);
    expect(within(codeCard()).getByRole('link', { name: 'Codes verwalten' }).getAttribute('href')).toBe('/edit/codes');
  });

  it('links only an admin to the management of all codes', async () => {
    await signedInProfile({ roles: ['Premium'] });
    expect(screen.queryByRole('link', { name: 'Codes verwalten' })).toBeNull();
  });

  it('removes a code assignment', async () => {
    let assignments = [assignment];
    const fake = await signedInProfile({
      routes: {
        '/api/Code/GetCodes': () => jsonResponse(assignments),
        '/api/Code/RemoveCodeAssignement': () => {
          assignments = [];
          return new Response('true');
        },
      },
    });
    // The assignments load after the page renders.
    const remove = await screen.findByRole('button', { name: 'Code PREMIUM-1234 (Premium) entfernen' });
    await act(async () => {
      fireEvent.click(remove);
    });
    const [request] = fake.requestsTo('/api/Code/RemoveCodeAssignement');
    expect(request?.method).toBe('DELETE');
    expect(new URL(request?.url ?? '', 'http://x').searchParams.get('codeAssignementGuid')).toBe(assignment.id);
    expect(await screen.findByText('Sie haben noch keinen Code eingelöst.', {}, { timeout: 5000 })).toBeTruthy();
  });
});
