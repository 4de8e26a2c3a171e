import { CONTACT_SUBJECTS, IMPERSONATE_COOKIE } from '@lakecams/contracts';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';
import { DESKTOP, closePagesAfterEachTest, launchChromium, logIn, openPage, PHONE } from './browser.ts';
import { linkIn, waitForMail } from './mail-outbox.ts';
import { signedInApi } from './portal-api.ts';

/** Where the session keeps the user record (libs/session STORED_USER_KEY). */
const STORED_USER_KEY = 'lakecams.user';

interface Account {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  username: string;
  password: string;
}

function newAccount(tag: string): Account {
  const id = `${tag}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return {
    firstName: 'Erika',
    lastName: 'Muster',
    email: `${id}@example.ch`,
    phone: '044 123 45 67',
    username: id,
    password: 'Seecam2026!',
  };
}

/** The ALTCHA widget's state; `loading` until its script has defined the element. */
function captchaState(widget: Locator): Promise<string> {
  return widget.evaluate((el) => (el as unknown as { getState?: () => string }).getState?.() ?? 'loading');
}

/** A test that solves captchas: their proof of work takes the browser a while on a busy machine. */
const CAPTCHA_TEST_MS = 180_000;

describe('accounts in the embedded portal (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);
  const errors: string[] = [];
  /** Every console line, for a failure's message. */
  const consoleLines: string[] = [];

  beforeAll(async () => {
    portal = await startTestPortal({ rateLimitPerMinute: 1000 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** `beforeLoad` sets the page up before it loads, e.g. holds back a request. */
  async function open(path: string, beforeLoad?: (page: Page) => Promise<unknown>): Promise<Page> {
    // 4xx answers the tests provoke are checked by the tests themselves.
    const watch = { errors, consoleLines, label: path, ignoreFailedLoads: true };
    return (await openPage(browser, `${portal.url}${path}`, { ...watch, ...(beforeLoad ? { beforeLoad } : {}) })).page;
  }

  /** Desktop and phone screenshots of the page as it is now. */
  async function screenshots(page: Page, name: string): Promise<void> {
    // Transitions finished, e.g. the captcha's check mark.
    const options = { fullPage: true, animations: 'disabled' } as const;
    await page.screenshot({ path: join(ARTIFACTS, `account-${name}-desktop.png`), ...options });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, `account-${name}-phone.png`), ...options });
    await page.setViewportSize(DESKTOP);
  }

  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

  /** The ALTCHA widget solves its proof of work in the page; click it if it has not started by itself. */
  async function solveCaptcha(page: Page): Promise<void> {
    const widget = page.locator('altcha-widget');
    await widget.waitFor();
    // What the widget went through, for the failure message.
    await widget.evaluate((el) => {
      const log: string[] = [];
      const since = performance.now();
      const note = (what: string) => log.push(`${Math.round(performance.now() - since)}ms ${what}`);
      el.addEventListener('statechange', (event) => note(`state ${(event as CustomEvent).detail?.state}`));
      el.closest('form')?.addEventListener('focusin', (event) => note(`focus ${(event.target as Element).tagName}`));
      (window as unknown as { captchaLog: string[] }).captchaLog = log;
    });
    const state = () => captchaState(widget);
    await expect.poll(state, { timeout: 10_000 }).not.toBe('loading');
    // The widget may start solving by itself between a look at its state and a click (its spinner then covers
    // the checkbox): click only while it waits for one, and look again. The click goes to the label, as a
    // visitor's does: the widget draws its check mark over the input itself.
    const checkbox = page.getByText('Ich bin kein Roboter', { exact: true });
    const clicks: string[] = [];
    try {
      await expect
        .poll(
          async () => {
            const now = await state();
            if (now === 'unverified')
              await checkbox.click({ timeout: 2_000 }).then(
                () => clicks.push('clicked'),
                (error: Error) => clicks.push(error.message.split('\n')[0] ?? ''),
              );
            return now;
          },
          { timeout: 150_000, interval: 500 },
        )
        .toBe('verified');
    } catch (error) {
      await page.screenshot({ path: join(ARTIFACTS, 'account-captcha-stalled.png'), fullPage: true });
      const log = await page.evaluate(() => (window as unknown as { captchaLog?: string[] }).captchaLog ?? []);
      throw new Error(
        `${(error as Error).message}\nwidget: ${log.join(' | ')}\nclicks: ${clicks.join(' | ')}\nconsole: ${consoleLines.slice(-20).join(' | ')}`,
      );
    }
  }

  async function register(page: Page, account: Account): Promise<void> {
    await field(page, 'Vorname').fill(account.firstName);
    await field(page, 'Nachname').fill(account.lastName);
    await field(page, 'E-Mail-Adresse').fill(account.email);
    await field(page, 'Telefon').fill(account.phone);
    await field(page, 'Benutzername').fill(account.username);
    await field(page, 'Passwort').fill(account.password);
    await field(page, 'Passwort bestätigen').fill(account.password);
    await solveCaptcha(page);
    const submit = page.getByRole('button', { name: 'Registrieren', exact: true });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByText('Wir haben Ihnen eine E-Mail').waitFor();
  }

  /** Opens the confirmation link of the mail and confirms; ends on /login. */
  async function confirmFromMail(page: Page, account: Account, screenshotName?: string): Promise<void> {
    const mail = await waitForMail(portal.outboxDir, account.email, 'Registrierung bestätigen');
    const link = linkIn(mail, '/confirmRegistration');
    expect(link.searchParams.get('email')).toBe(account.email);
    await page.goto(`${portal.url}${link.pathname}${link.search}`);
    await expect.poll(() => field(page, 'Token').inputValue()).toBe(link.searchParams.get('token'));
    expect(await field(page, 'E-Mail-Adresse').inputValue()).toBe(account.email);
    if (screenshotName) await screenshots(page, screenshotName);
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await page.waitForURL(`${portal.url}/login`);
    // The login page says what happened.
    await page.getByRole('status').filter({ hasText: 'Ihre E-Mail-Adresse ist bestätigt' }).waitFor();
  }

  const menu = (page: Page) => page.getByRole('navigation', { name: 'Hauptmenü' });

  it(
    'registers, confirms by mail, logs in, updates the profile, redeems a code and logs out',
    async () => {
      const account = newAccount('reg');
      const page = await open('/register');
      await page.getByRole('heading', { level: 1, name: 'Registrieren' }).waitFor();
      await page.locator('altcha-widget').waitFor();
      await screenshots(page, 'register');

      // A message under a field once it was left, and a disabled button while anything is invalid.
      await field(page, 'Telefon').fill('0441234567');
      await field(page, 'Benutzername').focus();
      await page.getByText('This is not a phone number').waitFor();
      expect(await page.getByRole('button', { name: 'Registrieren', exact: true }).isDisabled()).toBe(true);
      await screenshots(page, 'register-invalid');

      await register(page, account);
      await screenshots(page, 'register-done');
      await page.getByRole('link', { name: 'Registrierung bestätigen' }).click();
      await page.waitForURL(/\/confirmRegistration\?email=/);

      await confirmFromMail(page, account, 'confirm-registration');
      await screenshots(page, 'login');
      await logIn(page, account);
      await page.waitForURL(`${portal.url}/`);
      await menu(page).getByRole('button', { name: 'Abmelden' }).waitFor();
      expect(await menu(page).getByRole('link', { name: 'Anmelden' }).count()).toBe(0);
      const stored = await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY);
      expect(JSON.parse(stored ?? '{}').userName).toBe(account.username);

      await menu(page).getByRole('link', { name: 'Mein Profil' }).click();
      await page.waitForURL(`${portal.url}/user`);
      await expect.poll(() => field(page, 'Vorname').inputValue()).toBe(account.firstName);
      await field(page, 'Vorname').fill('Erna');
      await page.getByRole('button', { name: 'Profil speichern' }).click();
      await page.getByText('Ihr Profil ist gespeichert.').waitFor();

      const admin = portal.demoAdmin;
      if (!admin) throw new Error('The portal created no demo admin');
      const [code] = await (await signedInApi(portal.url, admin)).post<string[]>(
        '/api/Code/CreateCodes?feature=Premium&count=1',
      );
      await field(page, 'Code').fill(code as string);
      await page.getByRole('button', { name: 'Einlösen' }).click();
      await page.getByRole('list', { name: 'Rollen' }).getByText('Premium').waitFor();
      await page.getByText(code as string).waitFor();
      await screenshots(page, 'user');

      // The profile survives a reload: the stored user is refreshed before the app loads.
      await page.reload();
      await expect.poll(() => field(page, 'Vorname').inputValue()).toBe('Erna');
      await page.getByRole('list', { name: 'Rollen' }).getByText('Premium').waitFor();

      await menu(page).getByRole('button', { name: 'Abmelden' }).click();
      await page.waitForURL(`${portal.url}/`);
      await menu(page).getByRole('link', { name: 'Anmelden' }).waitFor();
      expect(await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY)).toBeNull();
      await page.goto(`${portal.url}/user`);
      await page.waitForURL(`${portal.url}/login?returnUrl=/user`);
      await page.close();
    },
    CAPTCHA_TEST_MS,
  );

  it(
    'resets a forgotten password with the mailed code and logs in with the new one',
    async () => {
      const account = newAccount('pwd');
      const page = await open('/register');
      await register(page, account);
      await confirmFromMail(page, account);

      await logIn(page, { username: account.username, password: 'Falsch2026!' });
      await page.getByText('Benutzername oder Passwort ist falsch.').waitFor();
      await screenshots(page, 'login-wrong-password');

      const forgot = page.getByRole('form', { name: 'Passwort vergessen' });
      await forgot.getByLabel('E-Mail-Adresse').fill(account.email);
      await forgot.getByRole('button', { name: 'Code anfordern' }).click();
      await page.getByText(`Falls ${account.email} bei uns registriert ist`).waitFor();
      await screenshots(page, 'login-code-sent');

      const mail = await waitForMail(portal.outboxDir, account.email, 'Passwort zurücksetzen');
      const link = linkIn(mail, '/resetPassword');
      const code = link.searchParams.get('code');
      expect(code).toBeTruthy();
      expect(mail.text).toContain(code as string);
      await page.goto(`${portal.url}${link.pathname}${link.search}`);
      await expect.poll(() => field(page, 'Code aus der E-Mail').inputValue()).toBe(code);
      expect(await field(page, 'E-Mail-Adresse').inputValue()).toBe(account.email);
      const newPassword = 'Zuerichsee7?';
      await field(page, 'Benutzername').fill(account.username);
      await field(page, 'Neues Passwort').fill(newPassword);
      await field(page, 'Passwort bestätigen').fill(newPassword);
      await screenshots(page, 'reset-password');
      await page.getByRole('button', { name: 'Passwort ändern' }).click();
      await page.waitForURL(`${portal.url}/login`);
      await page.getByRole('status').filter({ hasText: 'Ihr Passwort ist geändert' }).waitFor();

      await logIn(page, { username: account.username, password: newPassword });
      await page.waitForURL(`${portal.url}/`);
      await menu(page).getByRole('link', { name: 'Mein Profil' }).waitFor();
      await page.close();
    },
    CAPTCHA_TEST_MS,
  );

  it(
    'solves the captcha again by itself after a failed registration',
    async () => {
      const page = await open('/register');
      const taken = { ...newAccount('dup'), username: (portal.demoAdmin as { username: string }).username };
      await field(page, 'Vorname').fill(taken.firstName);
      await field(page, 'Nachname').fill(taken.lastName);
      await field(page, 'E-Mail-Adresse').fill(taken.email);
      await field(page, 'Telefon').fill(taken.phone);
      await field(page, 'Benutzername').fill(taken.username);
      await field(page, 'Passwort').fill(taken.password);
      await field(page, 'Passwort bestätigen').fill(taken.password);
      await solveCaptcha(page);
      const submit = page.getByRole('button', { name: 'Registrieren', exact: true });
      await submit.click();
      await page.getByRole('alert').filter({ hasText: 'Dieser Benutzername ist schon vergeben' }).waitFor();
      // No click, no focus: a fresh challenge is solved and the button is ready again.
      await expect.poll(() => submit.isEnabled(), { timeout: 30_000 }).toBe(true);
      await page.close();
    },
    CAPTCHA_TEST_MS,
  );

  it(
    'solves the captcha by itself when the visitor was typing before it loaded',
    async () => {
      // The widget comes only once the visitor is in the form, as on a slow line.
      const { promise: typed, resolve: letThrough } = Promise.withResolvers<void>();
      const page = await open('/register', (loading) =>
        loading.route('**/api/Captcha/Config', async (route) => {
          await typed;
          await route.continue();
        }),
      );
      await field(page, 'Vorname').fill('Erika');
      await field(page, 'Nachname').fill('Muster');
      letThrough();
      const widget = page.locator('altcha-widget');
      await widget.waitFor();
      // No click and no further focus.
      await expect.poll(() => captchaState(widget), { timeout: 150_000 }).toBe('verified');
      await page.close();
    },
    CAPTCHA_TEST_MS,
  );

  it(
    'sends the contact form with its captcha and goes home',
    async () => {
      const page = await open('/contact');
      await field(page, 'Name').fill('Erika Muster');
      await field(page, 'E-Mail-Adresse').fill('erika@example.ch');
      await field(page, 'Telefon').fill('055 210 00 00');
      await field(page, 'Betreff').selectOption(CONTACT_SUBJECTS[2]);
      await field(page, 'Nachricht').fill('Eine Kamera auf der Ufenau wäre schön.');
      await solveCaptcha(page);
      await screenshots(page, 'contact');
      await page.getByRole('button', { name: 'Senden' }).click();
      await page.waitForURL(`${portal.url}/`);
      const sent = page.getByRole('status').filter({ hasText: 'Ihre Nachricht ist gesendet' });
      await sent.waitFor();
      await screenshots(page, 'contact-sent');
      await sent.getByRole('button', { name: 'Schliessen' }).click();
      await expect.poll(() => sent.count()).toBe(0);
      const mail = await waitForMail(portal.outboxDir, '', `Kontakt: ${CONTACT_SUBJECTS[2]}`);
      expect(mail.text).toContain('Ufenau');
      await page.close();
    },
    CAPTCHA_TEST_MS,
  );

  it('lets the admin impersonate a user and return, the header showing who acts', async () => {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const page = await open('/login?returnUrl=%2Fimpersonate');
    await logIn(page, admin);
    await page.waitForURL(`${portal.url}/impersonate`);
    // The administration pages sit under "Verwaltung".
    await menu(page).getByRole('button', { name: 'Verwaltung' }).click();
    for (const entry of ['Benutzer vertreten', 'Jobs', 'Webcams bearbeiten', 'Referer bearbeiten']) {
      await menu(page).getByRole('link', { name: entry }).waitFor();
    }
    await page.keyboard.press('Escape');
    const table = page.getByRole('table');
    await table.getByText('pwd', { exact: false }).first().waitFor();
    await screenshots(page, 'impersonate');
    // The admin's long menu folds behind a toggle on phones.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Menü' }).click();
    await menu(page).getByRole('button', { name: 'Verwaltung' }).click();
    await menu(page).getByRole('link', { name: 'Referer bearbeiten' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'account-menu-open-phone.png') });
    // Escape closes the submenu, then the phone menu.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('button', { name: 'Menü' }).getAttribute('aria-expanded')).toBe('false');
    await page.setViewportSize(DESKTOP);

    const target = table.locator('tr', { hasText: 'pwd' }).first();
    await target.getByRole('button', { name: / vertreten$/ }).click();
    const strip = page.locator('.session-strip--impersonating');
    await strip.getByText('Sie handeln als').waitFor();
    expect(await strip.textContent()).toContain(`angemeldet als ${admin.username}`);
    // Acting as a plain user: the admin entries go, Impersonate stays.
    await expect.poll(() => menu(page).locator('a[href="/jobs"]').count()).toBe(0);
    expect(await menu(page).getByRole('link', { name: 'Benutzer vertreten' }).count()).toBe(1);
    await screenshots(page, 'impersonating');
    // A reload keeps acting as the user; pictures carry the impersonation cookie meanwhile.
    const impersonationCookie = async () =>
      (await page.context().cookies()).some((cookie) => cookie.name === IMPERSONATE_COOKIE);
    expect(await impersonationCookie()).toBe(true);
    await page.reload();
    await strip.getByText('Sie handeln als').waitFor();
    await expect.poll(() => menu(page).getByRole('link', { name: 'Benutzer vertreten' }).count()).toBe(1);
    expect(await menu(page).locator('a[href="/jobs"]').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'account-impersonating-after-reload.png') });

    await strip.getByRole('button', { name: 'Zurück zu meinem Benutzer' }).click();
    await menu(page).getByRole('button', { name: 'Verwaltung' }).waitFor();
    expect(await page.locator('.session-strip--impersonating').count()).toBe(0);
    expect(await impersonationCookie()).toBe(false);
    await page.close();
  });

  it('tells a signed-in user at /login who is signed in, with Abmelden and the way on, not the login form', async () => {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const page = await open('/login');
    await logIn(page, admin);
    await page.waitForURL(`${portal.url}/`);
    await menu(page).getByRole('button', { name: 'Abmelden' }).waitFor();

    // A bookmark or a link to the login page, opened again while signed in.
    await page.goto(`${portal.url}/login?returnUrl=%2Fedit%2Fwebcams`);
    const card = page.getByRole('region', { name: 'Sie sind angemeldet' });
    await card.waitFor();
    expect(await card.textContent()).toContain(`(${admin.username}).`);
    expect(await page.getByRole('form', { name: 'Anmelden' }).count()).toBe(0);
    await screenshots(page, 'login-signed-in');
    await card.getByRole('link', { name: 'Weiter zur angefragten Seite' }).click();
    await page.waitForURL(`${portal.url}/edit/webcams`);

    await page.goto(`${portal.url}/login`);
    await card.getByRole('button', { name: 'Abmelden' }).click();
    await menu(page).getByRole('link', { name: 'Anmelden' }).waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY)).toBeNull();
    await page.goto(`${portal.url}/login`);
    await page.getByRole('form', { name: 'Anmelden' }).waitFor();
    expect(await page.getByRole('region', { name: 'Sie sind angemeldet' }).count()).toBe(0);
    await page.close();
  });

  it('logs out and reloads once the server refuses both the access token and the refresh', async () => {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    // Its own context: a second tab of it writes the storage, and the expected 401s are no script errors here.
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${portal.url}/login`);
    await logIn(page, admin);
    await page.waitForURL(`${portal.url}/`);
    await menu(page).getByRole('button', { name: 'Abmelden' }).waitFor();

    // The session ends on the server's side: the refresh cookie is gone and the access token is refused.
    await context.clearCookies();
    const refreshStatuses: number[] = [];
    const refusedCalls: string[] = [];
    context.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path === '/api/Authenticate/RefreshToken') refreshStatuses.push(response.status());
      else if (response.status() === 401) refusedCalls.push(path);
    });
    // Another tab stores a token with a broken signature (its exp stays ahead, so no refresh timer races
    // the call below); this page takes it over through the storage event, as from any tab.
    await page.evaluate(() => {
      const taken = new Promise<void>((resolve) => addEventListener('storage', () => resolve(), { once: true }));
      Object.assign(window, { tokenTaken: taken });
    });
    const other = await context.newPage();
    await other.goto(`${portal.url}/api/News/News/news`);
    await other.evaluate((key) => {
      const user = JSON.parse(localStorage.getItem(key) ?? 'null');
      const [header, payload] = user.jwtToken.split('.');
      localStorage.setItem(key, JSON.stringify({ ...user, jwtToken: `${header}.${payload}.bm90LXNpZ25lZC1ieS11cw` }));
    }, STORED_USER_KEY);
    await page.evaluate(() => (window as unknown as { tokenTaken: Promise<void> }).tokenTaken);
    await other.close();

    await page.evaluate(() => Object.assign(window, { beforeExpiry: true }));
    const reloaded = page.waitForEvent('load');
    reloaded.catch(() => undefined);
    // An authenticated call: the profile's code list answers 401, and so does the refresh.
    await menu(page).getByRole('link', { name: 'Mein Profil' }).click();
    await reloaded;

    const navigation = () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type;
    expect(await page.evaluate(navigation)).toBe('reload');
    expect(await page.evaluate(() => 'beforeExpiry' in window)).toBe(false);
    await page.waitForURL(`${portal.url}/`);
    await menu(page).getByRole('link', { name: 'Anmelden' }).waitFor();
    await menu(page).getByRole('link', { name: 'Registrieren' }).waitFor();
    expect(await menu(page).getByRole('button', { name: 'Abmelden' }).count()).toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_USER_KEY)).toBeNull();
    expect(refusedCalls).toContain('/api/Code/GetCodes');
    expect(refreshStatuses).toEqual([401]);
    await context.close();
  });

  it('loaded the account screens without script errors', () => {
    expect(errors).toEqual([]);
  });
});

describe('the session with access tokens that live 3 seconds (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ rateLimitPerMinute: 1000, accessTokenTtlSeconds: 3 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('keeps two tabs signed in through many refreshes, on 401 and by timer, without tripping reuse detection', async () => {
    const admin = portal.demoAdmin;
    if (!admin) throw new Error('The portal created no demo admin');
    const context = await browser.newContext({ viewport: DESKTOP });
    const refreshStatuses: number[] = [];
    context.on('response', (response) => {
      if (response.url().endsWith('/api/Authenticate/RefreshToken')) refreshStatuses.push(response.status());
    });
    const first = await context.newPage();
    await first.goto(`${portal.url}/login?returnUrl=%2Fimpersonate`);
    await logIn(first, admin);
    await first.getByRole('table').getByText(admin.username).waitFor();

    const second = await context.newPage();
    await second.goto(`${portal.url}/impersonate`);
    await second.getByRole('table').getByText(admin.username).waitFor();

    // Several token lifetimes: both tabs' timers fire, one refresh at a time across the tabs.
    await first.waitForTimeout(12_000);
    for (const page of [first, second]) {
      const menu = page.getByRole('navigation', { name: 'Hauptmenü' });
      // The expired token meets a 401 on the way; the call is refreshed and retried.
      await menu.getByRole('link', { name: 'Mein Profil' }).click();
      await page.waitForURL(`${portal.url}/user`);
      await expect.poll(() => page.getByLabel('Vorname', { exact: true }).inputValue()).toBe('Portal');
      await menu.getByRole('button', { name: 'Verwaltung' }).click();
      await menu.getByRole('link', { name: 'Benutzer vertreten' }).click();
      await page.getByRole('table').getByText(admin.username).waitFor();
    }
    expect(refreshStatuses.length).toBeGreaterThanOrEqual(3);
    expect(refreshStatuses.filter((status) => status !== 200)).toEqual([]);
    await context.close();
    // Real token lifetimes pass here (12 s of waiting); a busy machine stretches the page work around them.
  }, 180_000);
});
