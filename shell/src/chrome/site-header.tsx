import { SITE_NAME } from '@lakecams/contracts';
import { useSession, useSessionClient } from '@lakecams/session';
import { useEffect, useId, useRef, useState } from 'react';
import { type MenuEntry, menuEntries } from './header-menu.ts';
import { groupMenuEntries, type MenuItem as MenuGroupItem } from './menu-groups.ts';
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

/** A menu entry holding several pages; it opens below its button and closes on a choice, Escape or a click elsewhere. */
function MenuGroup({
  group,
  currentPath,
  onLogout,
}: {
  group: Extract<MenuGroupItem, { kind: 'group' }>;
  currentPath: string;
  onLogout(): void;
}) {
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === currentPath;
  const listId = useId();
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener('click', closeOutside);
    return () => document.removeEventListener('click', closeOutside);
  }, [open]);
  const current = group.entries.some((entry) => entry.kind === 'link' && entry.href === currentPath);
  return (
    <div className="site-menu__group" ref={container} data-open={open || undefined}>
      <button
        type="button"
        className={current ? 'site-menu__button site-menu__button--current' : 'site-menu__button'}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpenOn(open ? null : currentPath)}
      >
        {group.label}
      </button>
      <ul id={listId} className="site-menu__submenu" hidden={!open}>
        {group.entries.map((entry) => (
          <li key={entry.kind === 'logout' ? 'logout' : entry.href}>
            <MenuItem entry={entry} currentPath={currentPath} onLogout={onLogout} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The header with its menu; it follows every session change without a reload. */
export function SiteHeader({ currentPath }: { currentPath: string }) {
  const session = useSessionClient();
  const items = groupMenuEntries(menuEntries(useSession()));
  // The phone menu stays open only on the page it was opened on: choosing a page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === currentPath;
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  // Escape closes an open submenu first, then the phone menu, and gives focus back to the toggle it came from.
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const group = nav.current?.querySelector<HTMLElement>('.site-menu__group[data-open] > button');
      if (group) group.click();
      else if (open) setOpenOn(null);
      else return;
      (group ?? toggle.current)?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [open]);
  const logout = () => void session.logout();

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
          ref={toggle}
          onClick={() => setOpenOn(open ? null : currentPath)}
        >
          Menü
        </button>
        <nav id={menuId} ref={nav} className={open ? 'site-menu site-menu--open' : 'site-menu'} aria-label="Hauptmenü">
          <ul>
            {items.map((item) => (
              <li key={item.kind === 'logout' ? 'logout' : item.kind === 'group' ? item.label : item.href}>
                {item.kind === 'group' ? (
                  <MenuGroup group={item} currentPath={currentPath} onLogout={logout} />
                ) : (
                  <MenuItem entry={item} currentPath={currentPath} onLogout={logout} />
                )}
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <SessionStrip />
    </header>
  );
}
