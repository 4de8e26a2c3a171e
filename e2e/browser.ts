import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, headless, with the background networking this closed network refuses turned off. */
export const COOKIE_NOTICE_KEY = 'lakecams.cookie-notice-accepted';

/**
 * Debian's Chromium. Pages start with the cookie notice already accepted (it would cover buttons),
 * unless `firstVisit` is set to see the page as a new visitor does.
 */
export async function launchChromium(options: { firstVisit?: boolean } = {}): Promise<Browser> {
  const browser = await launchPlainChromium();
  if (options.firstVisit) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (contextOptions) => {
    const context = await newContext(contextOptions);
    await context.addInitScript((key) => localStorage.setItem(key, 'yes'), COOKIE_NOTICE_KEY);
    return context;
  };
  browser.newPage = async (pageOptions) => {
    const context = await browser.newContext(pageOptions);
    const page = await context.newPage();
    page.once('close', () => void context.close());
    return page;
  };
  return browser;
}

function launchPlainChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export { freePort } from '@lakecams/service-kit/testing';
