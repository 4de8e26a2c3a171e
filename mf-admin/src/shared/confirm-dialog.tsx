import { FormActions, ModalDialog, Notice } from '@lakecams/ui-kit';
import { type ReactNode, useState } from 'react';
import { failureMessage } from './admin-api.ts';

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
  const [state, setState] = useState<'idle' | 'busy' | { failure: string }>('idle');
  async function confirm() {
    setState('busy');
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      console.error(failure, error);
      setState({ failure: failureMessage(error, failure) });
    }
  }
  return (
    <ModalDialog title={title} onClose={onClose}>
      {children}
      {typeof state === 'object' && (
        <Notice tone="error">
          <p>{state.failure}</p>
        </Notice>
      )}
      <FormActions>
        <button type="button" className="button--danger" disabled={state === 'busy'} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
        <button type="button" className="button--secondary" onClick={onClose}>
          Abbrechen
        </button>
      </FormActions>
    </ModalDialog>
  );
}
