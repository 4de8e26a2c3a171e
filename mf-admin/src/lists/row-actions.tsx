import { type ReactNode, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';

/** Below this width a row's buttons would stack up in several rows: they go into a menu instead. */
const PHONE_QUERY = '(max-width: 48rem)';

function subscribePhone(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;

/** A table row's actions: side by side on a wide screen, behind one "Aktionen" button on a phone. */
export function RowActions({ subject, children }: { subject: string; children: ReactNode }) {
  const phone = useSyncExternalStore(subscribePhone, isPhone);
  return phone ? (
    <ActionsMenu subject={subject}>{children}</ActionsMenu>
  ) : (
    <div className="row-actions">{children}</div>
  );
}

/** A disclosure: Escape, a click elsewhere or a chosen action closes it; focus returns to its button. */
function ActionsMenu({ subject, children }: { subject: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('click', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('click', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);
  return (
    <div className="row-actions-menu" ref={container}>
      <button
        ref={toggle}
        type="button"
        className="button--small button--secondary"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={`Aktionen für ${subject}`}
        onClick={() => setOpen(!open)}
      >
        Aktionen ▾
      </button>
      {/* A click on an action bubbles here after the action ran: the menu closes behind its dialog. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: keys reach the buttons inside. */}
      <div id={listId} className="row-actions-menu__list" hidden={!open} onClick={() => setOpen(false)}>
        {children}
      </div>
    </div>
  );
}
