import { REMOTES, SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, logIn, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { startTileServer, type TileServer } from './tile-server.ts';

/** The pages the gateway renders on the server, what each says, and a link each has. */
const PAGES = [
  {
    path: '/',
    remote: 'mf_map',
    heading: 'Webcams am Zürichsee',
    text: 'Aktuelle Bilder rund um den oberen Zürichsee.',
    link: { name: 'Alle Webcams', href: '/webcams' },
  },
  {
    path: '/webcams',
    remote: 'mf_map',
    heading: 'Alle Webcams',
    text: 'Halbinsel-Au',
    link: null,
  },
  {
    path: '/bestof',
    remote: 'mf_map',
    heading: 'Bilder des Tages',
    text: 'Vorheriger Tag',
    link: null,
  },
  {
    path: '/datenschutz',
    remote: 'mf_map',
    heading: 'Datenschutz',
    text: 'Impressum, Haftungsausschluss und Datenschutzerklärung.',
    link: { name: 'Preise und Referenzen', href: '/referes-list' },
  },
  {
    path: '/referes-list',
    remote: 'mf_map',
    heading: 'Preise und Referenzen',
    text: 'Zeigen Sie unsere Kamerabilder auf Ihrer Website',
    link: { name: 'Schreiben Sie uns', href: '/contact' },
  },
  {
    path: '/login',
    remote: 'mf_account',
    heading: 'Anmelden',
    text: 'Wir schicken Ihnen einen Code, mit dem Sie ein neues Passwort setzen können.',
    link: { name: 'Noch kein Konto? Registrieren', href: '/register' },
  },
  {
    path: '/register',
    remote: 'mf_account',
    heading: 'Registrieren',
    text: 'Mit einem Konto sehen Sie ausgewählte Kameras in besserer Qualität.',
    link: { name: 'Schon registriert? Anmelden', href: '/login' },
  },
  {
    path: '/contact',
    remote: 'mf_account',
    heading: 'Kontakt',
    text: 'Fragen zur Webseite, ein Vorschlag für einen neuen Kamerastandort',
    link: null,
  },
] as const;

interface Probe {
  __serverHeading?: Element | null;
  __lakecams?: { react: unknown };
  __lakecams_remotes?: Record<string, { react: unknown }>;
}

describe('pages rendered on the server, hydrated in Chromium', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let tiles: TileServer;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    tiles = await startTileServer();
    portal = await startTestPortal({
      demoBackfillMinutes: 0,
      mapTiles: { url: tiles.urlTemplate, attribution: 'Testkacheln' },
    });
    browser = await launchChromium();
    // The camera pages' text is the demo cameras' first pictures: wait for the day's best (it follows the list).
    await vi.waitFor(
      async () => {
        const answer = await fetch(`${portal.url}/api/Webcam/GetBestOfDay`);
        const pictures = answer.ok ? ((await answer.json()) as { pictures: unknown[] }).pictures : [];
        if (pictures.length === 0) throw new Error('no demo picture yet');
      },
      { timeout: 120_000, interval: 500 },
    );
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
    await tiles?.close();
  });

  /** A page with JavaScript, its console errors (React's hydration mismatches among them) and the heading parsed. */
  async function open(path: string, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    // The heading as parsed from the HTML, before any of the page's scripts runs (deferred ones run after this).
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive')
          (window as Probe).__serverHeading = document.querySelector('main h1');
      });
    });
    await page.goto(`${portal.url}${path}`);
    return { page, errors };
  }

  /** Hydrated: the remote took the container's mark and its React answers events. */
  async function hydrated(page: Page, remote: string): Promise<void> {
    await page.locator(`#remote-${remote}:not([${SERVER_RENDERED_ATTRIBUTE}])`).waitFor({ state: 'attached' });
  }

  it("sends each page's heading and text inside <main>, in the remote's container", async () => {
    for (const { path, remote, heading, text } of PAGES) {
      const answer = await fetch(`${portal.url}${path}`);
      expect(answer.status, path).toBe(200);
      const html = await answer.text();
      const main = /<main id="main"[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
      expect(main, path).toMatch(
        new RegExp(`^<div id="remote-${remote}" class="remote-outlet" ${SERVER_RENDERED_ATTRIBUTE}="${path}">`),
      );
      expect(main, path).toContain(`<h1>${heading}</h1>`);
      expect(main, path).toContain(text);
      const folder = REMOTES.find((r) => r.name === remote)?.folder;
      // The remote's stylesheet, inlined: it paints with the page's first bytes.
      expect(html, path).toMatch(
        new RegExp(`<style data-href="/remotes/${folder}/__federation_expose_app\\.[0-9a-f]{8}\\.css">`),
      );
    }
  });

  it('reads without JavaScript: heading, text and links', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    try {
      for (const { path, heading, text, link } of PAGES) {
        const page = await context.newPage();
        await page.goto(`${portal.url}${path}`);
        const main = page.locator('main');
        expect(await main.getByRole('heading', { level: 1 }).textContent(), path).toBe(heading);
        expect(await main.getByText(text).isVisible(), path).toBe(true);
        if (link) expect(await main.getByRole('link', { name: link.name }).getAttribute('href'), path).toBe(link.href);
        // What a crawler finds of the cameras: their pages linked, with their pictures.
        if (path === '/webcams') expect(await main.locator('a[href^="/webcam/"] img[src]').count()).toBe(8);
        // Styled by the remote's stylesheet, in the head.
        const remoteRules = await page.evaluate(() =>
          [...document.styleSheets]
            .filter((sheet) =>
              (sheet.ownerNode as Element | null)?.getAttribute('data-href')?.includes('__federation_expose_app'),
            )
            .reduce((rules, sheet) => rules + sheet.cssRules.length, 0),
        );
        expect(remoteRules, path).toBeGreaterThan(0);
        await page.screenshot({ path: join(ARTIFACTS, `no-js${path.replace('/', '-')}-phone.png`), fullPage: true });
        await page.setViewportSize(DESKTOP);
        await page.screenshot({ path: join(ARTIFACTS, `no-js${path.replace('/', '-')}-desktop.png`) });
        await page.close();
      }
    } finally {
      await context.close();
    }
  });

  it('hydrates each page without an error, keeping the elements the server sent', async () => {
    for (const { path, remote, heading } of PAGES) {
      const { page, errors } = await open(path);
      await hydrated(page, remote);
      await expect.poll(() => page.evaluate(() => (window as Probe).__lakecams_remotes !== undefined)).toBe(true);
      const same = await page.evaluate(() => document.querySelector('main h1') === (window as Probe).__serverHeading);
      expect(same, path).toBe(true);
      expect(await page.locator('main h1').count(), path).toBe(1);
      expect(await page.locator('main h1').textContent(), path).toBe(heading);
      // One React for the shell and the remote, hydrating or not (e2e/composition.e2e.test.ts).
      const oneReact = await page.evaluate(
        (name) => (window as Probe).__lakecams?.react === (window as Probe).__lakecams_remotes?.[name]?.react,
        remote,
      );
      expect(oneReact, path).toBe(true);
      expect(errors, path).toEqual([]);
      await page.close();
    }
  });

  it('stays interactive after hydrating: the forms validate, links navigate in the page', async () => {
    const { page, errors } = await open('/login');
    await hydrated(page, 'mf_account');
    const username = page.getByRole('form', { name: 'Anmelden' }).getByLabel('Benutzername');
    await username.fill('abc');
    await username.blur();
    await page.getByText('Username must be longer then 5 characters').waitFor();

    await page.goto(`${portal.url}/register`);
    await hydrated(page, 'mf_account');
    const firstName = page.getByLabel('Vorname');
    await firstName.fill('A');
    await firstName.blur();
    await expect.poll(() => firstName.getAttribute('aria-invalid')).toBe('true');

    await page.goto(`${portal.url}/datenschutz`);
    await hydrated(page, 'mf_map');
    await page.evaluate(() => {
      (window as { __samePage?: boolean }).__samePage = true;
    });
    await page.locator('main').getByRole('link', { name: 'Preise und Referenzen' }).click();
    await page.waitForURL(`${portal.url}/referes-list`);
    await page.locator('main h1', { hasText: 'Preise und Referenzen' }).waitFor();
    // The remote's router went there: no new page was loaded.
    expect(await page.evaluate(() => (window as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(await page.locator('main h1').count()).toBe(1);
    await page.getByRole('link', { name: 'Schreiben Sie uns' }).first().click();
    await page.waitForURL(`${portal.url}/contact`);
    await page.locator('main h1', { hasText: 'Kontakt' }).waitFor();
    expect(await page.locator('main h1').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps what a visitor typed before the page came alive', async () => {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const page = await browser.newPage({ viewport: PHONE });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // The login page's code is held back until the visitor has typed into the form the server sent.
    await page.route(/\/remotes\/mf-account\/.*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${portal.url}/login`);
    const form = page.getByRole('form', { name: 'Anmelden' });
    await form.getByLabel('Benutzername').fill(admin.username);
    await form.getByLabel('Passwort', { exact: true }).fill(admin.password);
    release();
    await hydrated(page, 'mf_account');
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${portal.url}/`);
    await page.close();
  });

  it('shows a signed-in user who they are on the login page and fills in the contact form, after hydrating', async () => {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const { page, errors } = await open('/login');
    await logIn(page, admin);
    await page.waitForURL(`${portal.url}/`);

    await page.goto(`${portal.url}/login`);
    // The server sent the login form, as to everybody; the hydrated page says who is signed in.
    await page.getByRole('region', { name: 'Sie sind angemeldet' }).waitFor();
    expect(await page.getByRole('form', { name: 'Anmelden' }).count()).toBe(0);

    await page.goto(`${portal.url}/contact`);
    await hydrated(page, 'mf_account');
    await expect.poll(() => page.getByLabel('E-Mail-Adresse').inputValue()).not.toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("sends the header, news, footer and a first visit's cookie notice, and hydrates them", async () => {
    // Without JavaScript: the site's menu, the news and the footer's links are in the HTML.
    const plain = await browser.newContext({ javaScriptEnabled: false, viewport: DESKTOP });
    try {
      await plain.clearCookies();
      const page = await plain.newPage();
      await page.goto(`${portal.url}/webcams`);
      const menu = page.getByRole('navigation', { name: 'Hauptmenü' });
      expect(await menu.getByRole('link', { name: 'Anmelden' }).getAttribute('href')).toBe('/login');
      expect(await page.getByRole('navigation', { name: 'Fusszeile' }).getByRole('link').count()).toBe(3);
      expect(await page.getByRole('region', { name: 'Hinweis zu Cookies' }).isVisible()).toBe(true);
      expect(await page.locator('.news-banner').count()).toBeLessThanOrEqual(1);
      await page.screenshot({ path: join(ARTIFACTS, 'no-js-chrome-desktop.png') });
    } finally {
      await plain.close();
    }

    // With JavaScript: the same elements, taken over; accepting the notice keeps it out of the next page's HTML.
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      await context.clearCookies();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive')
            (window as { __serverNotice?: Element | null }).__serverNotice = document.querySelector('.cookie-notice');
        });
      });
      await page.goto(`${portal.url}/datenschutz`);
      await page.locator(`#shell-footer:not([${SERVER_RENDERED_ATTRIBUTE}])`).waitFor({ state: 'attached' });
      expect(
        await page.evaluate(
          () => document.querySelector('.cookie-notice') === (window as { __serverNotice?: Element }).__serverNotice,
        ),
      ).toBe(true);
      await page.getByRole('button', { name: 'Akzeptieren' }).click();
      await page.locator('.cookie-notice').waitFor({ state: 'detached' });
      expect(await (await fetch(`${portal.url}/datenschutz`)).text()).toContain('class="cookie-notice"');
      const accepted = await (
        await fetch(`${portal.url}/datenschutz`, { headers: { cookie: 'lakecams_cookie_notice=yes' } })
      ).text();
      expect(accepted).not.toContain('class="cookie-notice"');
      expect(accepted).toContain('class="site-footer"');
      expect((await context.cookies()).find((c) => c.name === 'lakecams_cookie_notice')?.value).toBe('yes');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
