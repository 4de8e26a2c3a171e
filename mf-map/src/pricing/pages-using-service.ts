import { PAGES_USING_SERVICE_PATH } from '@lakecams/contracts';
import { apiJson } from '@lakecams/session';

export { PAGES_USING_SERVICE_PATH };

export interface PartnerPage {
  href: string;
  /** Host and path without the scheme, as people read addresses. */
  label: string;
}

/** Only http(s) addresses become links: a stored `javascript:` url must never be clickable (docs/product.md §4.10). */
export function partnerPages(urls: readonly unknown[]): PartnerPage[] {
  const pages = new Map<string, PartnerPage>();
  for (const value of urls) {
    if (typeof value !== 'string') continue;
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const path = url.pathname === '/' ? '' : url.pathname;
    pages.set(url.href, { href: url.href, label: `${url.host}${path}` });
  }
  return [...pages.values()].sort((a, b) => a.label.localeCompare(b.label, 'de-CH'));
}

export async function fetchPartnerPages(signal?: AbortSignal): Promise<PartnerPage[]> {
  const urls = await apiJson<unknown>(PAGES_USING_SERVICE_PATH, signal ? { signal } : undefined);
  return Array.isArray(urls) ? partnerPages(urls) : [];
}
