import { FormActions, Notice } from '@lakecams/ui-kit';
import { useCallback, useState } from 'react';
import { adminFailureMessage } from './admin-messages.ts';

type ActionState = 'idle' | 'busy' | 'done' | { failure: string };

export interface Action {
  busy: boolean;
  /** The last run succeeded. */
  done: boolean;
  /** Why the last run failed, for the user; null otherwise. */
  failure: string | null;
  /** Runs one call; resolves true when it succeeded. `failure` is shown when the server gave no message. */
  run(call: () => Promise<unknown>, failure: string): Promise<boolean>;
  reset(): void;
}

/** A save, upload or removal a dialog runs: busy while it runs, then done or the reason it failed. */
export function useAction(): Action {
  const [state, setState] = useState<ActionState>('idle');
  const run = useCallback(async (call: () => Promise<unknown>, failure: string) => {
    setState('busy');
    try {
      await call();
      setState('done');
      return true;
    } catch (error) {
      // Shown to the user; nothing for the console.
      setState({ failure: adminFailureMessage(error, failure) });
      return false;
    }
  }, []);
  const reset = useCallback(() => setState('idle'), []);
  return {
    busy: state === 'busy',
    done: state === 'done',
    failure: typeof state === 'object' ? state.failure : null,
    run,
    reset,
  };
}

/** The failure of an action, announced at once. */
export function ActionFailure({ action }: { action: Action }) {
  if (!action.failure) return null;
  return (
    <Notice tone="error">
      <p>{action.failure}</p>
    </Notice>
  );
}

/** A form's end: what went wrong, then save (busy while it runs) and cancel. */
export function SaveOrCancel({
  action,
  saveLabel = 'Speichern',
  onCancel,
}: {
  action: Action;
  saveLabel?: string;
  onCancel: () => void;
}) {
  return (
    <>
      <ActionFailure action={action} />
      <FormActions>
        <button type="submit" disabled={action.busy}>
          {saveLabel}
        </button>
        <button type="button" className="button--secondary" onClick={onCancel}>
          Abbrechen
        </button>
      </FormActions>
    </>
  );
}
