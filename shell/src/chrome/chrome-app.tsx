import { SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { type ReactNode, StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { ChromeFooter, ChromeHeader } from './chrome.tsx';

export const CHROME_CONTAINERS = { header: 'shell-header', footer: 'shell-footer' } as const;

function requiredElement(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html lacks #${id}`);
  return element;
}

/**
 * Hydrates in a transition: React then works in slices and yields to the browser between them, so taking the page
 * over makes no long task on a slow phone (nothing changes on screen meanwhile; the page is already painted).
 */
export function hydrateInTransition(container: HTMLElement, element: ReactNode): Root {
  let root: Root | undefined;
  startTransition(() => {
    root = hydrateRoot(container, element);
  });
  return root as Root;
}

/**
 * Hydrates what the gateway rendered into the container for the page now open (server.tsx), or renders anew; the
 * mark is taken away either way.
 */
function rootIn(container: HTMLElement, element: ReactNode): Root {
  const renderedAt = container.getAttribute(SERVER_RENDERED_ATTRIBUTE);
  container.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
  if (renderedAt === window.location.pathname) return hydrateInTransition(container, element);
  container.replaceChildren();
  const root = createRoot(container);
  root.render(element);
  return root;
}

/** The shell's own single-spa application, active on every path: header and footer, two roots. */
export function chromeLifecycles(): Record<'bootstrap' | 'mount' | 'unmount', () => Promise<void>> {
  let roots: Root[] = [];
  return {
    bootstrap: async () => {},
    mount: async () => {
      roots = [
        rootIn(
          requiredElement(CHROME_CONTAINERS.header),
          <StrictMode>
            <ChromeHeader />
          </StrictMode>,
        ),
        rootIn(
          requiredElement(CHROME_CONTAINERS.footer),
          <StrictMode>
            <ChromeFooter />
          </StrictMode>,
        ),
      ];
    },
    unmount: async () => {
      for (const root of roots) root.unmount();
      roots = [];
    },
  };
}
