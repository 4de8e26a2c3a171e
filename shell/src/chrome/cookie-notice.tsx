import { useState } from 'react';
import { SiteLink } from './site-link.tsx';

export const COOKIE_NOTICE_KEY = 'lakecams.cookie-notice-accepted';

function alreadyAccepted(): boolean {
  try {
    return localStorage.getItem(COOKIE_NOTICE_KEY) === 'yes';
  } catch {
    return false;
  }
}

/** Shown at the first visit until accepted; the acceptance is remembered in this browser (docs/product.md §3.6). */
export function CookieNotice({ currentPath }: { currentPath: string }) {
  const [accepted, setAccepted] = useState(alreadyAccepted);
  if (accepted) return null;
  const accept = () => {
    try {
      localStorage.setItem(COOKIE_NOTICE_KEY, 'yes');
    } catch {
      // Private mode: the notice returns at the next visit, nothing worse.
    }
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
