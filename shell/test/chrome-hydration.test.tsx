import { COOKIE_NOTICE_COOKIE, PAGE_DATA_IDS, SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHROME_CONTAINERS, chromeLifecycles } from '../src/chrome/chrome-app.tsx';
import { COOKIE_NOTICE_KEY } from '../src/chrome/cookie-notice.tsx';
import { renderChrome } from '../src/server.tsx';

/** The page as the gateway sends it: the chrome's server rendering in its containers, the news as page data. */
function serverRenderedPage(path: string, cookieNoticeAccepted = false) {
  window.history.replaceState(null, '', path);
  const news = 'Seeüberquerung am Samstag';
  const chrome = renderChrome(path, { [PAGE_DATA_IDS.news]: news }, { cookieNoticeAccepted });
  document.body.innerHTML =
    `<script type="application/json" id="${PAGE_DATA_IDS.news}">${JSON.stringify(news)}</script>` +
    `<div id="${CHROME_CONTAINERS.header}" ${SERVER_RENDERED_ATTRIBUTE}="${path}">${chrome.header}</div>` +
    '<main id="main"></main>' +
    `<div id="${CHROME_CONTAINERS.footer}" ${SERVER_RENDERED_ATTRIBUTE}="${path}">${chrome.footer}</div>`;
  return chrome;
}

describe('the chrome rendered on the server, hydrated in the browser', () => {
  const lifecycles = chromeLifecycles();
  afterEach(async () => {
    await act(() => lifecycles.unmount());
    document.body.replaceChildren();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    document.cookie = `${COOKIE_NOTICE_COOKIE}=; Path=/; Max-Age=0`;
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it('keeps the very elements the server sent, asks for no news, and takes the cookie notice over', async () => {
    const chrome = serverRenderedPage('/webcams');
    expect(chrome.header).toContain('Seeüberquerung am Samstag');
    expect(chrome.footer).toContain('Hinweis zu Cookies');
    const fetched = vi.spyOn(globalThis, 'fetch');
    const errors = vi.spyOn(console, 'error');
    const serverNotice = document.querySelector('.cookie-notice');
    const serverHeader = document.querySelector('.site-header');
    await act(() => lifecycles.mount());
    // Hydrated, not rendered anew: the same nodes, no mismatch reported.
    expect(document.querySelector('.cookie-notice')).toBe(serverNotice);
    expect(document.querySelector('.site-header')).toBe(serverHeader);
    expect(errors).not.toHaveBeenCalled();
    expect(fetched).not.toHaveBeenCalled();
    expect(document.getElementById(CHROME_CONTAINERS.header)?.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
    // The notice works once hydrated, and the cookie tells the server to leave it out next time.
    const notice = screen.getByRole('region', { name: 'Hinweis zu Cookies' });
    await act(() => fireEvent.click(within(notice).getByRole('button', { name: 'Akzeptieren' })));
    expect(document.querySelector('.cookie-notice')).toBeNull();
    expect(document.cookie).toContain(`${COOKIE_NOTICE_COOKIE}=yes`);
  });

  it('renders without the notice for a visitor whose cookie says accepted', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    document.cookie = `${COOKIE_NOTICE_COOKIE}=yes; Path=/`;
    const chrome = serverRenderedPage('/login', true);
    expect(chrome.footer).not.toContain('cookie-notice');
    const errors = vi.spyOn(console, 'error');
    await act(() => lifecycles.mount());
    expect(errors).not.toHaveBeenCalled();
    expect(document.querySelector('.cookie-notice')).toBeNull();
  });

  it('moves an acceptance this browser kept before the cookie into the cookie, and hides the notice', async () => {
    localStorage.setItem(COOKIE_NOTICE_KEY, 'yes');
    serverRenderedPage('/');
    await act(() => lifecycles.mount());
    expect(document.querySelector('.cookie-notice')).toBeNull();
    expect(document.cookie).toContain(`${COOKIE_NOTICE_COOKIE}=yes`);
  });

  it('renders anew when the visitor is already on another page than the one rendered', async () => {
    serverRenderedPage('/webcams');
    window.history.replaceState(null, '', '/contact');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(''));
    await act(() => lifecycles.mount());
    expect(document.querySelector('[aria-current="page"]')?.getAttribute('href')).toBe('/contact');
  });
});
