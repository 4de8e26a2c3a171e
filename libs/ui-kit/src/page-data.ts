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
