import { createPortal } from 'react-dom';
import { CookieNotice } from './cookie-notice.tsx';
import { FlashNotice } from './flash-notice.tsx';
import { NewsBanner } from './news-banner.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { useLocationPath } from './use-location-path.ts';

/** Header and news above, footer and cookie notice below the remotes' containers; one React root. */
export function Chrome({ footerElement }: { footerElement: HTMLElement }) {
  const currentPath = useLocationPath();
  return (
    <>
      <a className="skip-link" href="#main">
        Zum Inhalt springen
      </a>
      <SiteHeader currentPath={currentPath} />
      <NewsBanner />
      <FlashNotice currentPath={currentPath} />
      {createPortal(
        <>
          <SiteFooter currentPath={currentPath} />
          <CookieNotice currentPath={currentPath} />
        </>,
        footerElement,
      )}
    </>
  );
}
