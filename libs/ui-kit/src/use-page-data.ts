import { PAGE_DATA_IDS, type PageData, type PageDataId } from '@lakecams/contracts';
import { createContext, useContext, useEffect, useState } from 'react';
import { keptPageData } from './page-data.ts';

// Not in page-data.ts: the shell reads that before its async boundary, where React is not to be had yet.

/** What the gateway hands a page rendered on the server (page-render.server.tsx); null in the browser. */
export const ServerPageDataContext = createContext<PageData | null>(null);

/**
 * A data block of the page, the same on the server as in the browser's first render (which hydrates what the
 * server rendered): on the server what the gateway passed to `render`, in the browser the block in the HTML, kept
 * for this page load.
 */
export function usePageData<T>(id: PageDataId): T | undefined {
  const server = useContext(ServerPageDataContext);
  const [data] = useState(() => (server ? (server[id] as T | undefined) : keptPageData<T>(id)));
  return data;
}

type Answers = Record<string, unknown>;
const usedAnswers = new Set<string>();

/**
 * The answer to the GET `call` (path and query) the gateway wrote into the page (contracts PAGE_START_CALLS), for
 * a first render that shows it at once. In the browser each answer serves the page load's first render that asks,
 * so coming back later asks the server.
 */
export function usePageAnswer<T>(call: string): T | undefined {
  const server = useContext(ServerPageDataContext);
  const [answer] = useState(() => {
    const answers = (server ? server[PAGE_DATA_IDS.answers] : keptPageData(PAGE_DATA_IDS.answers)) as
      | Answers
      | undefined;
    if (!answers || !Object.hasOwn(answers, call) || (!server && usedAnswers.has(call))) return undefined;
    return answers[call] as T;
  });
  // Used once mounted, not while rendering: a render may run twice (StrictMode) and must see the same.
  useEffect(() => {
    if (answer !== undefined) usedAnswers.add(call);
  }, [answer, call]);
  return answer;
}
