/**
 * Data the gateway wrote into the page's HTML (`PAGE_DATA_IDS` in contracts), read once: the element is removed,
 * so a later page of the same visit asks the server again rather than showing what was current at load.
 */
export function takePageData<T>(id: string): T | undefined {
  if (typeof document === 'undefined') return undefined;
  const element = document.getElementById(id);
  if (element?.getAttribute('type') !== 'application/json') return undefined;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as T;
  } catch {
    return undefined;
  }
}

const kept = new Map<string, unknown>();

/**
 * A data block read once and kept for the components of this page load that need it too (the first render of
 * several components hydrates with the same value); `forgetPageData` when later renders must ask the server.
 */
export function keptPageData<T>(id: string): T | undefined {
  // Looked for again while not found: the element may come later than the first look (a test's page, say).
  if (kept.get(id) === undefined) kept.set(id, takePageData<T>(id));
  return kept.get(id) as T | undefined;
}

export function forgetPageData(id: string): void {
  kept.set(id, undefined);
}
