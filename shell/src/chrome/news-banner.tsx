import { NEWS_PATH, PAGE_DATA_IDS } from '@lakecams/contracts';
import { useSession, useSessionClient } from '@lakecams/session';
import { takePageData } from '@lakecams/ui-kit/page-data';
import { useEffect, useRef, useState } from 'react';
import { useChromeServerState } from './chrome-server.ts';

/** The news text the page was made with: from the gateway on the server, from the page's HTML in the browser. */
function useNewsOfPage(): string | null {
  const server = useChromeServerState();
  const [news] = useState(() => {
    const text = server ? server.data[PAGE_DATA_IDS.news] : takePageData<unknown>(PAGE_DATA_IDS.news);
    return typeof text === 'string' ? text.trim() : null;
  });
  return news;
}

/**
 * The news text below the header; refetched on every authentication change and on logout (docs/product.md §3.5).
 * The page's HTML brings the first text; without it the box is kept, empty, until the first answer, so the page
 * below does not move when the text arrives; an empty text closes it (docs/decisions.md, "The header's height from
 * the first paint").
 */
export function NewsBanner() {
  const session = useSessionClient();
  const { user, applicationUser } = useSession();
  const fromPage = useNewsOfPage();
  // null: not answered yet. A refetch keeps the text shown until its answer replaces it.
  const [news, setNews] = useState<string | null>(fromPage);
  const who = `${user?.id ?? ''}/${applicationUser?.id ?? ''}`;
  // The page's text is the anonymous visitor's: asked again only once somebody is signed in.
  const answeredFor = useRef(fromPage === null ? null : '/');

  useEffect(() => {
    if (answeredFor.current === who) return;
    answeredFor.current = who;
    let current = true;
    session.api
      .fetch(NEWS_PATH)
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => current && setNews(text.trim()))
      // No answer: a first fetch closes the kept box, a refetch keeps what is shown.
      .catch(() => current && setNews((shown) => shown ?? ''));
    return () => {
      current = false;
    };
  }, [session, who]);

  if (news === null) return <div className="news-banner" aria-hidden="true" />;
  if (!news) return null;
  return (
    <aside className="news-banner" aria-label="Neuigkeiten">
      <p>{news}</p>
    </aside>
  );
}
