import { FormActions, ModalDialog } from '@lakecams/ui-kit';
import type { ReactNode } from 'react';
import { ActionFailure, useAction } from './use-action.tsx';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs on confirmation; the dialog closes when it resolves and shows the message when it fails. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  failure: string;
}

/** Asks before something is removed for good. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose, failure }: ConfirmDialogProps) {
  const action = useAction();
  async function confirm() {
    if (await action.run(onConfirm, failure)) onClose();
  }
  return (
    <ModalDialog title={title} onClose={onClose}>
      {children}
      <ActionFailure action={action} />
      <FormActions>
        <button type="button" className="button--danger" disabled={action.busy} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
        <button type="button" className="button--secondary" onClick={onClose}>
          Abbrechen
        </button>
      </FormActions>
    </ModalDialog>
  );
}
