import { SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { type Session, SessionContext } from '@lakecams/session';
import { createTestSession, testUser } from '@lakecams/session/testing';
import { remoteLifecycles } from '@lakecams/ui-kit';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountApp } from '../src/account-app.tsx';
import { render } from '../src/server.tsx';

vi.mock('../src/captcha/captcha-field.tsx', () => import('./captcha-stub.tsx'));

/**
 * The page as the gateway sends it (the server build's markup in the remote's container), then mounted by the
 * remote's lifecycles as the shell mounts it.
 */
async function hydrate(path: string, session: Session) {
  window.history.replaceState(null, '', path);
  const container = document.createElement('div');
  container.setAttribute(SERVER_RENDERED_ATTRIBUTE, new URL(path, 'http://x').pathname);
  container.innerHTML = render(path) ?? '';
  document.body.append(container);
  const heading = container.querySelector('h1');
  const Root = () => (
    <SessionContext.Provider value={session}>
      <AccountApp />
    </SessionContext.Provider>
  );
  const lifecycles = remoteLifecycles('mf_account', Root);
  const props = { name: 'mf_account', domElementGetter: () => container, singleSpa: {}, mountParcel: () => {} };
  await lifecycles.bootstrap(props as never);
  await lifecycles.mount(props as never);
  return { container, heading, unmount: () => lifecycles.unmount(props as never) };
}

describe('account pages rendered by the gateway, hydrated in the browser', () => {
  const errors: unknown[][] = [];
  beforeAll(() => {
    // single-spa-react's mount resolves once React rendered, which act() would hold back until the mount resolved.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    // React reports a hydration mismatch as an error event of the page (a console error in a browser).
    window.addEventListener('error', reportError);
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
  });
  const reportError = (event: ErrorEvent) => {
    errors.push([event.error]);
    event.preventDefault();
  };
  afterAll(() => {
    window.removeEventListener('error', reportError);
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    vi.restoreAllMocks();
  });
  afterEach(() => {
    document.body.replaceChildren();
    expect(errors.splice(0)).toEqual([]);
  });

  it('keeps the markup of the login page and makes its form work', async () => {
    const page = await hydrate('/login', (await createTestSession()).session);
    expect(page.container.querySelector('h1')).toBe(page.heading);
    expect(page.container.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
    const username = screen.getByLabelText('Benutzername');
    fireEvent.change(username, { target: { value: 'abc' } });
    fireEvent.blur(username);
    await screen.findByText('Username must be longer then 5 characters');
    await page.unmount();
  });

  it('shows a signed-in user who they are right after hydrating the anonymous login page', async () => {
    const page = await hydrate('/login', (await createTestSession({ user: testUser() })).session);
    await screen.findByText(/Sie sind angemeldet als Alice Muster \(alice1\)/);
    expect(screen.queryByRole('form', { name: 'Anmelden' })).toBeNull();
    await page.unmount();
  });

  it("fills in a signed-in user's name and address on the contact page after hydrating it", async () => {
    const page = await hydrate('/contact', (await createTestSession({ user: testUser() })).session);
    expect(page.container.querySelector('h1')).toBe(page.heading);
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Alice Muster'));
    expect((screen.getByLabelText('E-Mail-Adresse') as HTMLInputElement).value).toBe('alice@example.ch');
    await page.unmount();
  });

  it('renders anew when the visitor went on to another page before the remote came', async () => {
    window.history.replaceState(null, '', '/register');
    const container = document.createElement('div');
    container.setAttribute(SERVER_RENDERED_ATTRIBUTE, '/login');
    container.innerHTML = render('/login') ?? '';
    document.body.append(container);
    const lifecycles = remoteLifecycles('mf_account', AccountApp);
    const props = { name: 'mf_account', domElementGetter: () => container, singleSpa: {}, mountParcel: () => {} };
    await lifecycles.bootstrap(props as never);
    await lifecycles.mount(props as never);
    expect(container.querySelector('h1')?.textContent).toBe('Registrieren');
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    await lifecycles.unmount(props as never);
  });
});
