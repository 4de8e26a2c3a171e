import { useSession, useSessionClient } from '@lakecams/session';
import { useEffect, useState } from 'react';

export const NEWS_PATH = '/api/News/News/news';

/** The news text below the header; refetched on every authentication change and on logout (docs/product.md §3.5). */
export function NewsBanner() {
  const session = useSessionClient();
  const { user, applicationUser } = useSession();
  const [news, setNews] = useState('');
  const who = `${user?.id ?? ''}/${applicationUser?.id ?? ''}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `who` is the trigger: it changes exactly when the authentication state does.
  useEffect(() => {
    let current = true;
    session.api
      .fetch(NEWS_PATH)
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => current && setNews(text.trim()))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [session, who]);

  if (!news) return null;
  return (
    <aside className="news-banner" aria-label="Neuigkeiten">
      <p>{news}</p>
    </aside>
  );
}
