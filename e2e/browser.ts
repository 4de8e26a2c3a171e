import { COOKIE_NOTICE_COOKIE, SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** The cookie that says the cookie notice was accepted (contracts COOKIE_NOTICE_COOKIE), for every local portal. */
const COOKIE_NOTICE_ACCEPTED = ['127.0.0.1', 'localhost'].map((domain) => ({
  name: COOKIE_NOTICE_COOKIE,
  value: 'yes',
  domain,
  path: '/',
}));

/**
 * Debian's Chromium. Pages start with the cookie notice already accepted (it would cover buttons),
 * unless `firstVisit` is set to see the page as a new visitor does.
 */
export async function launchChromium(options: { firstVisit?: boolean } = {}): Promise<Browser> {
  const browser = await launchPlainChromium();
  const open = new Set<BrowserContext>();
  openContexts.set(browser, open);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (contextOptions) => {
    const context = await newContext(contextOptions);
    open.add(context);
    context.once('close', () => open.delete(context));
    await reportPolicyViolations(context);
    if (!options.firstVisit) {
      await context.addCookies(COOKIE_NOTICE_ACCEPTED);
    }
    return context;
  };
  browser.newPage = async (pageOptions) => {
    const context = await browser.newContext(pageOptions);
    const page = await context.newPage();
    page.once('close', () => void closeQuietly(context));
    return page;
  };
  return browser;
}

const openContexts = new WeakMap<Browser, Set<BrowserContext>>();

/** Content-Security-Policy violations seen by any page or frame since the current test began. */
const policyViolations: string[] = [];

/** Every frame of the context tells the test of each violation of the portal's Content-Security-Policy. */
async function reportPolicyViolations(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__reportPolicyViolation', ({ frame }, text: string) => {
    policyViolations.push(`${text} (on ${frame.url()})`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportPolicyViolation?: (text: string) => void })
        .__reportPolicyViolation;
      report?.(
        `${event.effectiveDirective} refused ${event.blockedURI || 'inline code'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
}

/** The violations since the last call, cleared: a test that expects one takes it away before the check after it. */
export function takePolicyViolations(): string[] {
  return policyViolations.splice(0);
}

/** Closing twice, or after the browser went, is not an error worth an unhandled rejection. */
function closeQuietly(context: BrowserContext): Promise<void> {
  return context.close().catch(() => undefined);
}

/**
 * Closes, after every test, the pages and contexts the test opened and did not close (a failed
 * assertion skips its `page.close()`), so nothing of one test (listeners, waits, event streams)
 * outlives it. Call once per file with a getter of the file's browser.
 */
export function closePagesAfterEachTest(browser: () => Browser | undefined): void {
  afterEach(async () => {
    const current = browser();
    const open = current ? openContexts.get(current) : undefined;
    if (open) await Promise.all([...open].map(closeQuietly));
    // The portal runs under a strict policy: anything it refuses is a broken page, whatever the test looked at.
    const violations = takePolicyViolations();
    if (violations.length > 0) throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
  });
}

/** Which of a page's complaints a test fails on, and where they are kept (`watchPageErrors`). */
export interface PageErrorWatch {
  /** Where the lines go (several pages may share one list); a new list by default. */
  errors?: string[];
  /** Put before each line, e.g. the path the page opened. */
  label?: string;
  /**
   * Chromium logs every answer of 400 or more as a console error ("Failed to load resource"); a test that provokes
   * such answers checks them itself and leaves these lines out.
   */
  ignoreFailedLoads?: boolean;
  /** Only uncaught exceptions, not console errors (a dev build's own console talk). */
  exceptionsOnly?: boolean;
  /** Every console line of any type, for a failure's message. */
  consoleLines?: string[];
}

/**
 * Watches a page for uncaught exceptions and console errors; returns the list they are added to. (Violations of the
 * Content-Security-Policy are caught for every page by `closePagesAfterEachTest`.)
 */
export function watchPageErrors(page: Page, watch: PageErrorWatch = {}): string[] {
  const errors = watch.errors ?? [];
  const prefix = watch.label === undefined ? '' : `${watch.label}: `;
  page.on('pageerror', (error) => errors.push(`${prefix}${error.message}`));
  if (watch.exceptionsOnly) return errors;
  page.on('console', (message) => {
    watch.consoleLines?.push(`${prefix}${message.type()} ${message.text()}`);
    if (message.type() !== 'error') return;
    if (watch.ignoreFailedLoads && message.text().includes('Failed to load resource')) return;
    errors.push(`${prefix}${message.text()}`);
  });
  return errors;
}

/**
 * A new page (in a context of its own, with `context`'s options) watched for errors from before it loads
 * (`watchPageErrors`), set up by `beforeLoad` (e.g. a request held back), then sent to `url`.
 */
export async function openPage(
  browser: Browser,
  url: string,
  options: PageErrorWatch & {
    context?: BrowserContextOptions;
    beforeLoad?: (page: Page) => Promise<unknown>;
  } = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage(options.context ?? { viewport: DESKTOP });
  const errors = watchPageErrors(page, options);
  await options.beforeLoad?.(page);
  await page.goto(url);
  return { page, errors };
}

/**
 * A page signed in as `credentials` at `path`: the login page with `?returnUrl=`, the form filled in and sent, and
 * the page the portal returns to; watched for errors as `openPage` does.
 */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  path: string,
  credentials: { username: string; password: string },
  options: Parameters<typeof openPage>[2] & { waitForUrl?: { timeout?: number } } = {},
): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(browser, `${baseUrl}/login?returnUrl=${encodeURIComponent(path)}`, options);
  await logIn(opened.page, credentials);
  await opened.page.waitForURL(`${baseUrl}${path}`, options.waitForUrl);
  return opened;
}

/** How Debian's Chromium is started here, by the browser tests and by Lighthouse in bench/vitals.ts. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function launchPlainChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export { freePort } from '@lakecams/service-kit/testing';

/** Fills in and sends the login form on the page (at /login, or where the form is shown). */
export async function logIn(page: Page, credentials: { username: string; password: string }): Promise<void> {
  const form = page.getByRole('form', { name: 'Anmelden' });
  await form.getByLabel('Benutzername').fill(credentials.username);
  await form.getByLabel('Passwort', { exact: true }).fill(credentials.password);
  await form.getByRole('button', { name: 'Anmelden' }).click();
}

/**
 * The main heading the visitor sees. A camera page holds two for a moment: its first view's, sent in the HTML,
 * and the remote's, hidden until it takes over.
 */
export function mainHeading(page: Page) {
  return page.locator('main').getByRole('heading', { level: 1 }).first();
}

/**
 * A page of another site (127.0.0.2, a second origin on this machine) that frames each of `urls`, one frame each,
 * as a partner's page would.
 */
export async function startFramingSite(urls: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const html = `<!doctype html><title>Partner</title>${urls.map((url) => `<iframe src="${url}" width="400" height="300"></iframe>`).join('')}`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.2:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Home's live map (Leaflet) comes when a visitor turns to the page (docs/decisions.md, "The map's first paint"):
 * a key press is that turn, and touches nothing on the page.
 */
export async function showLiveMap(page: Page): Promise<void> {
  // mf-map's code listens once it runs, which is before it takes over the page the server sent.
  await page.locator(`#remote-mf_map:not([${SERVER_RENDERED_ATTRIBUTE}]) .camera-map`).first().waitFor();
  await page.keyboard.press('Shift');
}
