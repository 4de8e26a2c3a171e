import { SITE_NAME } from '@lakecams/contracts';
import { SiteLink } from './site-link.tsx';

export const FOOTER_LINKS = [
  { href: '/referes-list', label: 'Preise und Referenzen' },
  { href: '/contact', label: 'Kontakt' },
  { href: '/datenschutz', label: 'Datenschutz' },
] as const;

export function SiteFooter({ currentPath }: { currentPath: string }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Fusszeile">
        <ul>
          {FOOTER_LINKS.map((link) => (
            <li key={link.href}>
              <SiteLink href={link.href} currentPath={currentPath}>
                {link.label}
              </SiteLink>
            </li>
          ))}
        </ul>
      </nav>
      <p className="site-footer__name">{SITE_NAME}</p>
    </footer>
  );
}
