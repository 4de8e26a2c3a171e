/**
 * A message that outlives a navigation: one remote leaves it, the shell shows it on the page it names
 * (docs/product.md §3.7).
 */
export interface FlashMessage {
  text: string;
  /** The path the visitor lands on. */
  path: string;
}

const FLASH_KEY = 'lakecams.flash';
/** Fired on `window` when a message was left, so a page already at its path shows it at once. */
export const FLASH_EVENT = 'lakecams:flash';

/** Leaves `text` for the page at `path` (sessionStorage: it survives a reload of the landing page, not the tab). */
export function leaveFlashMessage(text: string, path: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ text, path } satisfies FlashMessage));
  } catch {
    return; // Storage refused (private mode): the page simply says nothing.
  }
  window.dispatchEvent(new Event(FLASH_EVENT));
}

/** The message left for `path`, removed so it is shown once; null when there is none for this page. */
export function takeFlashMessage(path: string): FlashMessage | null {
  try {
    const stored = sessionStorage.getItem(FLASH_KEY);
    if (!stored) return null;
    const flash = JSON.parse(stored) as Partial<FlashMessage>;
    if (flash.path !== path || typeof flash.text !== 'string') return null;
    sessionStorage.removeItem(FLASH_KEY);
    return { text: flash.text, path };
  } catch {
    return null;
  }
}
