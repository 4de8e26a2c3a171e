import { SITE_NAME } from '@lakecams/contracts';
import { AUTH_PATHS, SessionContext, type Session } from '@lakecams/session';
import { createTestSession, jsonResponse, testUser, testUserSummary } from '@lakecams/session/testing';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChromeFooter, ChromeHeader } from '../src/chrome/chrome.tsx';

/** The chrome as the shell mounts it: header here, footer (and cookie notice) in its own element and root. */
function renderChrome(session: Session) {
  const footer = document.createElement('div');
  document.body.append(footer);
  render(
    <SessionContext.Provider value={session}>
      <ChromeHeader />
    </SessionContext.Provider>,
  );
  render(
    <SessionContext.Provider value={session}>
      <ChromeFooter />
    </SessionContext.Provider>,
    { container: footer },
  );
  return footer;
}

const forgetCookieNotice = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
  document.cookie = 'lakecams_cookie_notice=; Path=/; Max-Age=0';
};

describe('Chrome', () => {
  afterEach(() => {
    cleanup();
    window.history.replaceState(null, '', '/');
  });

  const menuHrefs = () =>
    [...screen.getByRole('navigation', { name: 'Hauptmenü' }).querySelectorAll('a')].map((a) => a.getAttribute('href'));

  it('links the site name home and shows the visitor menu', async () => {
    const { session } = await createTestSession();
    renderChrome(session);
    expect(screen.getByRole('link', { name: SITE_NAME }).getAttribute('href')).toBe('/');
    expect(menuHrefs()).toEqual([
      '/webcams',
      '/bestof',
      '/register',
      '/login',
      'https://www.instagram.com/seecam.zuerichsee/',
    ]);
    const social = screen.getByRole('link', { name: 'Seecam Zürichsee auf Instagram' });
    expect(social.getAttribute('rel')).toContain('noopener');
  });

  it('renders the footer into its own element', async () => {
    const footer = renderChrome((await createTestSession()).session);
    expect(footer.querySelector('a[href="/datenschutz"]')).not.toBeNull();
  });

  it('marks the current page after a routing event', async () => {
    renderChrome((await createTestSession()).session);
    act(() => {
      window.history.pushState(null, '', '/webcams');
      window.dispatchEvent(new CustomEvent('single-spa:routing-event'));
    });
    expect(screen.getByRole('link', { name: 'Webcams' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Anmelden' }).getAttribute('aria-current')).toBeNull();
  });

  it('follows login and logout without a reload', async () => {
    const fake = await createTestSession({
      roles: ['Admin'],
      routes: { [AUTH_PATHS.authenticate]: () => jsonResponse(testUser()) },
    });
    renderChrome(fake.session);
    expect(menuHrefs()).toContain('/login');

    await act(() => fake.session.login({ username: 'alice1', password: 'Secret1!' }));
    expect(menuHrefs()).toEqual([
      '/webcams',
      '/bestof',
      '/edit/referer/cameras',
      '/impersonate',
      '/jobs',
      '/edit/webcams',
      '/edit/referers',
      '/edit/codes',
      '/user',
      'https://www.instagram.com/seecam.zuerichsee/',
    ]);
    expect(screen.getByText(/Angemeldet als/).textContent).toContain('alice1');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Abmelden' }));
    });
    expect(fake.requestsTo(AUTH_PATHS.logOut)).toHaveLength(1);
    expect(fake.navigations).toEqual(['/']);
    expect(menuHrefs()).toContain('/login');
    expect(screen.queryByRole('button', { name: 'Abmelden' })).toBeNull();
  });

  it('shows who is acting while impersonating, with the way back', async () => {
    const fake = await createTestSession({ user: testUser(), roles: ['Admin'] });
    renderChrome(fake.session);
    const bob = testUserSummary({
      id: '6d1f1c9e-0000-4000-8000-000000000002',
      firstName: 'Bob',
      lastName: 'Beispiel',
      userName: 'bobbob',
    });
    fake.route(AUTH_PATHS.roles, () => jsonResponse(['Premium']));
    await act(() => fake.session.impersonate(bob));

    // The flash notice's live region is a status too, empty here.
    const strip = screen.getAllByRole('status').find((region) => region.textContent !== '') as HTMLElement;
    expect(strip.textContent).toContain('Sie handeln als Bob Beispiel (bobbob)');
    expect(strip.textContent).toContain('angemeldet als alice1');
    expect(menuHrefs()).toContain('/impersonate');
    expect(menuHrefs()).not.toContain('/jobs');

    fake.route(AUTH_PATHS.roles, () => jsonResponse(['Admin']));
    await act(async () => {
      fireEvent.click(within(strip).getByRole('button', { name: 'Zurück zu meinem Benutzer' }));
    });
    await screen.findByText(/Angemeldet als/);
    expect(menuHrefs()).toContain('/jobs');
  });

  it('opens and closes the phone menu with its toggle', async () => {
    renderChrome((await createTestSession()).session);
    const toggle = screen.getByRole('button', { name: 'Menü' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    act(() => {
      window.history.pushState(null, '', '/webcams');
      window.dispatchEvent(new CustomEvent('single-spa:routing-event'));
    });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('news banner and cookie notice', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    forgetCookieNotice();
  });

  it('shows the news below the header and refetches it on login and logout', async () => {
    let served = 0;
    const fake = await createTestSession({
      routes: {
        [AUTH_PATHS.authenticate]: () => jsonResponse(testUser()),
        '/api/News/News/news': () => {
          served += 1;
          return new Response(`Neuigkeit ${served}`);
        },
      },
    });
    renderChrome(fake.session);
    expect((await screen.findByRole('complementary', { name: 'Neuigkeiten' })).textContent).toBe('Neuigkeit 1');
    await act(() => fake.session.login({ username: 'alice1', password: 'Secret1!' }));
    await screen.findByText('Neuigkeit 2');
    await act(() => fake.session.logout());
    await screen.findByText('Neuigkeit 3');
  });

  it('shows no banner when there is no news', async () => {
    const { session } = await createTestSession({ routes: { '/api/News/News/news': () => new Response('') } });
    renderChrome(session);
    await act(async () => {});
    expect(screen.queryByRole('complementary', { name: 'Neuigkeiten' })).toBeNull();
    expect(document.querySelector('.news-banner')).toBeNull();
  });

  it(`keeps the banner's room, empty and unannounced, while the news loads (docs/decisions.md, "The header's height from the first paint")`, async () => {
    let answer: (text: string) => void = () => {};
    const { session } = await createTestSession({
      routes: {
        '/api/News/News/news': () =>
          new Promise<Response>((resolve) => (answer = (text) => resolve(new Response(text)))),
      },
    });
    renderChrome(session);
    const room = document.querySelector('.news-banner');
    expect(room?.getAttribute('aria-hidden')).toBe('true');
    expect(room?.textContent).toBe('');
    expect(screen.queryByRole('complementary', { name: 'Neuigkeiten' })).toBeNull();
    await act(async () => answer('Neuigkeit'));
    expect((await screen.findByRole('complementary', { name: 'Neuigkeiten' })).textContent).toBe('Neuigkeit');
    expect(document.querySelectorAll('.news-banner')).toHaveLength(1);
  });

  it('closes that room when the news cannot be fetched', async () => {
    const { session } = await createTestSession({
      routes: { '/api/News/News/news': () => Promise.reject(new TypeError('Failed to fetch')) },
    });
    renderChrome(session);
    expect(document.querySelector('.news-banner')).not.toBeNull();
    await act(async () => {});
    expect(document.querySelector('.news-banner')).toBeNull();
  });

  it('shows the cookie notice at the first visit, links the privacy page, and remembers the acceptance', async () => {
    const { session } = await createTestSession();
    const footer = renderChrome(session);
    const notice = within(footer).getByRole('region', { name: 'Hinweis zu Cookies' });
    expect(notice.textContent).toMatch(/Cookies/);
    expect(within(notice).getByRole('link', { name: 'Datenschutzerklärung' }).getAttribute('href')).toBe(
      '/datenschutz',
    );
    fireEvent.click(within(notice).getByRole('button', { name: 'Akzeptieren' }));
    expect(within(footer).queryByRole('region', { name: 'Hinweis zu Cookies' })).toBeNull();
    cleanup();
    const again = renderChrome(session);
    expect(within(again).queryByRole('region', { name: 'Hinweis zu Cookies' })).toBeNull();
  });
});
