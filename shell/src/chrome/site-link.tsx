import type { ReactNode } from 'react';
import { navigateToUrl } from 'single-spa';

interface SiteLinkProps {
  href: string;
  currentPath: string;
  className?: string;
  children: ReactNode;
}

/** A link that navigates through single-spa (no page reload) and marks the current page. */
export function SiteLink({ href, currentPath, className, children }: SiteLinkProps) {
  return (
    <a
      href={href}
      className={className}
      aria-current={href === currentPath ? 'page' : undefined}
      onClick={navigateToUrl}
    >
      {children}
    </a>
  );
}
