import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** Debian's Chromium, headless, with the background networking this closed network refuses turned off. */
export const COOKIE_NOTICE_KEY = 'lakecams.cookie-notice-accepted';

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
      await context.addInitScript((key) => localStorage.setItem(key, 'yes'), COOKIE_NOTICE_KEY);
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
