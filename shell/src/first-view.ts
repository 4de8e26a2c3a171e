/**
 * The gateway sends a camera page with a first view of its picture in <main> (gateway page-meta.ts), so the
 * picture paints before any script. The page's remote removes it once it has rendered; the shell removes it when
 * the visitor leaves that page first or the remote fails.
 */
export const removeFirstView = () => document.getElementById('first-view')?.remove();

export function dropFirstViewOnLeave(): void {
  if (!document.getElementById('first-view')) return;
  const path = window.location.pathname;
  const leave = () => {
    if (window.location.pathname === path) return;
    removeFirstView();
    window.removeEventListener('single-spa:routing-event', leave);
  };
  window.addEventListener('single-spa:routing-event', leave);
}
