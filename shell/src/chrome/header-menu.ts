import { type AuthState, impersonatedUserId } from '@lakecams/session';

export type MenuEntry =
  | { kind: 'link'; href: string; label: string }
  | { kind: 'logout'; label: string }
  | { kind: 'social'; href: string; label: string };

/** The portal's page on a social network, linked from the header menu. */
export const SOCIAL_LINK = {
  kind: 'social',
  href: 'https://www.instagram.com/seecam.zuerichsee/',
  label: 'Seecam Zürichsee auf Instagram',
} as const satisfies MenuEntry;

const link = (href: string, label: string): MenuEntry => ({ kind: 'link', href, label });

/** The header menu, rule by rule, for the current authentication state (docs/product.md §3.3). */
export function menuEntries(state: AuthState): MenuEntry[] {
  const confirmed = state.user?.emailConfirmed === true;
  const entries: MenuEntry[] = [link('/webcams', 'Webcams'), link('/bestof', 'Bilder des Tages')];
  // Camera setup for users with referers, and for admins: they configure every url.
  if (state.hasReferes || state.isAdmin) entries.push(link('/edit/referer/cameras', 'Kamera-Einrichtung'));
  if (state.isAdmin || impersonatedUserId(state) !== null) entries.push(link('/impersonate', 'Benutzer vertreten'));
  if (state.isAdmin) {
    entries.push(
      link('/jobs', 'Jobs'),
      link('/edit/webcams', 'Webcams bearbeiten'),
      link('/edit/referers', 'Referer bearbeiten'),
      link('/edit/codes', 'Codes verwalten'),
    );
  }
  if (confirmed) entries.push(link('/user', 'Mein Profil'), { kind: 'logout', label: 'Abmelden' });
  else entries.push(link('/register', 'Registrieren'), link('/login', 'Anmelden'));
  entries.push(SOCIAL_LINK);
  return entries;
}
