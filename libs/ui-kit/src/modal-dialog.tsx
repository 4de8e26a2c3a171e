import { type ReactNode, useEffect, useId, useRef } from 'react';
import './modal-dialog.css';

/**
 * A modal dialog on the native <dialog> element: focus is trapped and restored by the browser,
 * Escape closes it. Render it only while it is open; `onClose` unmounts it.
 */
export function ModalDialog({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal-dialog modal-dialog--wide' : 'modal-dialog'}
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="modal-dialog__header">
        <h2 id={headingId}>{title}</h2>
        <button type="button" className="modal-dialog__close" aria-label="Schliessen" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="modal-dialog__body">{children}</div>
    </dialog>
  );
}
