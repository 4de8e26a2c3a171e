import type { PageData, PageDataId } from '@lakecams/contracts';
import { createContext, useContext, useState } from 'react';
import { takePageData } from './page-data.ts';

// Not in page-data.ts: the shell reads that before its async boundary, where React is not to be had yet.

/** What the gateway hands a page rendered on the server (page-render.server.tsx); null in the browser. */
export const ServerPageDataContext = createContext<PageData | null>(null);

/**
 * A data block of the page, the same on the server as in the browser's first render (which hydrates what the
 * server rendered): on the server what the gateway passed to `render`, in the browser the block in the HTML,
 * taken once per mount.
 */
export function usePageData<T>(id: PageDataId): T | undefined {
  const server = useContext(ServerPageDataContext);
  const [data] = useState(() => (server ? (server[id] as T | undefined) : takePageData<T>(id)));
  return data;
}
