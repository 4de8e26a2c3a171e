import { useSession, useSessionClient } from '@lakecams/session';
import { useEffect, useState } from 'react';

export const NEWS_PATH = '/api/News/News/news';

/**
 * The news text below the header; refetched on every authentication change and on logout (docs/product.md §3.5).
 * Until the first answer its box is kept, empty, so the page below does not move when the text arrives; an empty
 * text closes it (docs/decisions.md, "The header's height from the first paint").
 */
export function NewsBanner() {
  const session = useSessionClient();
  const { user, applicationUser } = useSession();
  // null: not answered yet. A refetch keeps the text shown until its answer replaces it.
  const [news, setNews] = useState<string | null>(null);
  const who = `${user?.id ?? ''}/${applicationUser?.id ?? ''}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `who` is the trigger: it changes exactly when the authentication state does.
  useEffect(() => {
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
