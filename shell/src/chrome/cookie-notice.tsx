import { cookieNoticeAcceptance, cookieNoticeAccepted } from '@lakecams/contracts';
import { useEffect, useState } from 'react';
import { useChromeServerState } from './chrome-server.ts';
import { SiteLink } from './site-link.tsx';

/** Where this browser remembered the acceptance before the cookie did (still honoured, then moved). */
export const COOKIE_NOTICE_KEY = 'lakecams.cookie-notice-accepted';

function rememberAcceptance(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and older Safari.
  document.cookie = cookieNoticeAcceptance(window.location.protocol === 'https:');
}

function acceptedEarlierInThisBrowser(): boolean {
  try {
    return localStorage.getItem(COOKIE_NOTICE_KEY) === 'yes';
  } catch {
    return false;
  }
}

/**
 * Shown at the first visit until accepted; the acceptance is remembered in a cookie, so the server renders the
 * next pages without it (docs/product.md §3.6). The first render shows what the server rendered.
 */
export function CookieNotice({ currentPath }: { currentPath: string }) {
  const server = useChromeServerState();
  const [accepted, setAccepted] = useState(() =>
    server ? server.cookieNoticeAccepted : cookieNoticeAccepted(document.cookie),
  );
  useEffect(() => {
    if (accepted || !acceptedEarlierInThisBrowser()) return;
    rememberAcceptance();
    setAccepted(true);
  }, [accepted]);
  if (accepted) return null;
  const accept = () => {
    rememberAcceptance();
    setAccepted(true);
  };
  return (
    <section className="cookie-notice" aria-label="Hinweis zu Cookies">
      <p>
        Diese Webseite verwendet Cookies und einen Webanalyse-Dienst, damit sie funktioniert und wir sie verbessern
        können. Mit der weiteren Nutzung stimmen Sie dem zu. Mehr dazu in der{' '}
        <SiteLink href="/datenschutz" currentPath={currentPath}>
          Datenschutzerklärung
        </SiteLink>
        .
      </p>
      <button type="button" className="cookie-notice__accept" onClick={accept}>
        Akzeptieren
      </button>
    </section>
  );
}
