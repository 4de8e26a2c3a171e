import { CookieNotice } from './cookie-notice.tsx';
import { FlashNotice } from './flash-notice.tsx';
import { NewsBanner } from './news-banner.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { useLocationPath } from './use-location-path.ts';

/** Above the remotes' containers (`#shell-header`): skip link, header, news and the last action's notice. */
export function ChromeHeader() {
  const currentPath = useLocationPath();
  return (
    <>
      <a className="skip-link" href="#main">
        Zum Inhalt springen
      </a>
      <SiteHeader currentPath={currentPath} />
      <NewsBanner />
      <FlashNotice currentPath={currentPath} />
    </>
  );
}

/** Below them (`#shell-footer`): footer and cookie notice. Its own root, so the server renders it in place. */
export function ChromeFooter() {
  const currentPath = useLocationPath();
  return (
    <>
      <SiteFooter currentPath={currentPath} />
      <CookieNotice currentPath={currentPath} />
    </>
  );
}
