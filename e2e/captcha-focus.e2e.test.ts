import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '../scripts/portal.ts';
import { closePagesAfterEachTest, DESKTOP, launchChromium, PHONE } from './browser.ts';
import { ARTIFACTS, startTestPortal } from './embedded-portal.ts';

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The captcha's checkbox and the text of its label, where the page shows them, and the checkbox's outline. */
function measure(page: Page) {
  return page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('altcha-widget input[type=checkbox]');
    const label = document.querySelector<HTMLLabelElement>('altcha-widget label');
    if (!input || !label) throw new Error('The captcha has no checkbox with a label');
    const text = document.createRange();
    text.selectNodeContents(label);
    const style = getComputedStyle(input);
    const box = ({ left, top, right, bottom }: DOMRect) => ({ left, top, right, bottom });
    return {
      focused: input.matches(':focus-visible'),
      label: label.textContent?.trim(),
      checkbox: box(input.getBoundingClientRect()),
      text: box(text.getBoundingClientRect()),
      outline: {
        style: style.outlineStyle,
        reach: Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset),
      },
    };
  });
}

describe('the captcha checkbox (Chromium)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  closePagesAfterEachTest(() => browser);

  beforeAll(async () => {
    portal = await startTestPortal({ demoCameras: false });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('keeps its focus ring off "Überprüft" (%s)', async (name, viewport) => {
    const page = await browser.newPage({ viewport });
    await page.goto(`${portal.url}/contact`);
    const widget = page.locator('altcha-widget');
    await widget.waitFor();
    // Typing in the form starts the proof of work; once solved the label reads "Überprüft".
    const message = page.getByLabel('Nachricht', { exact: true });
    await message.fill('Eine Kamera auf der Ufenau wäre schön.');
    await expect
      .poll(() => widget.evaluate((el) => (el as unknown as { getState?: () => string }).getState?.()), {
        timeout: 150_000,
      })
      .toBe('verified');
    await widget.scrollIntoViewIfNeeded();

    // Unfocused, then reached by keyboard, as the ring shows for a keyboard user.
    const before = await measure(page);
    const blurred = {
      text: await page.screenshot({ clip: clipOf(before.text) }),
      widget: await widget.screenshot(),
    };
    await message.focus();
    await page.keyboard.press('Tab');
    const seen = await measure(page);
    expect(seen).toMatchObject({ focused: true, label: 'Überprüft' });
    await page.screenshot({ path: join(ARTIFACTS, `captcha-focus-${name}.png`), fullPage: true });

    // The ring as painted: the label's text looks as it did unfocused, and the widget shows a ring.
    expect((await page.screenshot({ clip: clipOf(seen.text) })).equals(blurred.text)).toBe(true);
    expect((await widget.screenshot()).equals(blurred.widget)).toBe(false);
    // And as laid out: the outline box (Chromium draws an `auto` one around what the checkbox's pseudo-elements
    // cover too, so it has to be a plain one) keeps off the text.
    expect(seen.outline.style).not.toBe('auto');
    const { checkbox: box, outline } = seen;
    const ring = {
      left: box.left - outline.reach,
      top: box.top - outline.reach,
      right: box.right + outline.reach,
      bottom: box.bottom + outline.reach,
    };
    expect(overlaps(ring, seen.text), JSON.stringify({ ring, text: seen.text })).toBe(false);
    await page.close();
  });
});

function clipOf({ left, top, right, bottom }: Box) {
  return { x: left, y: top, width: right - left, height: bottom - top };
}
