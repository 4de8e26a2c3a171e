/**
 * The gateway sends a camera page with a first view of its picture in <main> (gateway page-meta.ts), so the
 * picture paints before any script. The page's remote removes it once it has rendered; the shell removes it when
 * the visitor leaves that page first or the remote fails.
 */
export const removeFirstView = () => document.getElementById('first-view')?.remove();

export function dropFirstViewOnLeave(): void {
  const firstView = document.getElementById('first-view');
  if (!firstView) return;
  // The page it was sent for: the visitor may have gone on before the shell's code ran.
  const path = firstView.dataset.path ?? window.location.pathname;
  if (window.location.pathname !== path) {
    removeFirstView();
    return;
  }
  const leave = () => {
    if (window.location.pathname === path) return;
    removeFirstView();
    window.removeEventListener('single-spa:routing-event', leave);
  };
  window.addEventListener('single-spa:routing-event', leave);
}

/**
 * Resolves once the first view's picture has loaded or failed (at most `limitMs`), at once on other pages: the
 * shell's and the page's scripts then do not compete with the page's one picture for the network and the main
 * thread, and it paints as soon as a plain page would paint it.
 */
export function firstViewLoaded(limitMs = 1500): Promise<void> {
  const picture = document.querySelector<HTMLImageElement>('#first-view img');
  if (!picture || picture.complete) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    picture.addEventListener('load', done, { once: true });
    picture.addEventListener('error', done, { once: true });
  });
}

/**
 * Resolves once the browser has painted the page as its HTML came (the frame after the next one starts), or after
 * `limitMs` in a tab that paints nothing (in the background).
 */
export function afterFirstPaint(limitMs = 200): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}
