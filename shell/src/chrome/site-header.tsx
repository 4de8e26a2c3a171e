import { SITE_NAME } from '@lakecams/contracts';
import { useSession, useSessionClient } from '@lakecams/session';
import { useId, useState } from 'react';
import { type MenuEntry, menuEntries } from './header-menu.ts';
import { SessionStrip } from './session-strip.tsx';
import { SiteLink } from './site-link.tsx';
import { SocialIcon } from './social-icon.tsx';

function MenuItem({ entry, currentPath, onLogout }: { entry: MenuEntry; currentPath: string; onLogout(): void }) {
  switch (entry.kind) {
    case 'link':
      return (
        <SiteLink href={entry.href} currentPath={currentPath}>
          {entry.label}
        </SiteLink>
      );
    case 'logout':
      return (
        <button type="button" className="site-menu__button" onClick={onLogout}>
          {entry.label}
        </button>
      );
    case 'social':
      return (
        <a
          className="site-menu__social"
          href={entry.href}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={entry.label}
        >
          <SocialIcon />
          <span className="site-menu__social-text">Instagram</span>
        </a>
      );
  }
}

/** The header with the menu of spec §2; it follows every session change without a reload. */
export function SiteHeader({ currentPath }: { currentPath: string }) {
  const session = useSessionClient();
  const entries = menuEntries(useSession());
  // The phone menu stays open only on the page it was opened on: choosing a page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === currentPath;
  const menuId = useId();

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <SiteLink href="/" currentPath={currentPath} className="site-header__name">
          {SITE_NAME}
        </SiteLink>
        <button
          type="button"
          className="site-menu__toggle"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpenOn(open ? null : currentPath)}
        >
          Menü
        </button>
        <nav id={menuId} className={open ? 'site-menu site-menu--open' : 'site-menu'} aria-label="Hauptmenü">
          <ul>
            {entries.map((entry) => (
              <li key={entry.kind === 'logout' ? 'logout' : entry.href}>
                <MenuItem entry={entry} currentPath={currentPath} onLogout={() => void session.logout()} />
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <SessionStrip />
    </header>
  );
}
