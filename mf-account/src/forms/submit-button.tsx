import type { FormState } from '@lakecams/ui-kit';
import { type ReactNode, useEffect, useId, useRef } from 'react';

export const INVALID_FORM_HINT = 'Bitte füllen Sie zuerst das Formular richtig aus.';
export const CAPTCHA_PENDING_HINT = 'Der Spam-Schutz ist noch nicht bestätigt.';

interface SubmitButtonProps {
  form: Pick<FormState<string>, 'isValid' | 'attemptSubmit'>;
  /** The form is being sent. */
  busy: boolean;
  /** What else must happen before sending, in the visitor's words (e.g. the captcha); null when nothing. */
  blockedBy?: string | null;
  className?: string;
  children: ReactNode;
}

/**
 * The submit of every account form: disabled while the form is invalid, something else is missing
 * or it is being sent. A hint under it says why, and is its description for screen readers (docs/product.md §5).
 */
export function SubmitButton({ form, busy, blockedBy = null, className, children }: SubmitButtonProps) {
  const hintId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const hint = form.isValid ? blockedBy : INVALID_FORM_HINT;

  // A disabled default button blocks Enter in the fields, so Enter shows every message instead.
  useEffect(() => {
    const owner = button.current?.form;
    if (!owner || form.isValid) return;
    const showMessages = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) form.attemptSubmit();
    };
    owner.addEventListener('keydown', showMessages);
    return () => owner.removeEventListener('keydown', showMessages);
  }, [form]);

  return (
    <>
      <button
        ref={button}
        type="submit"
        className={className}
        disabled={busy || hint !== null}
        aria-describedby={hint && !busy ? hintId : undefined}
      >
        {children}
      </button>
      {hint && !busy && (
        <p id={hintId} className="submit-hint">
          {hint}
        </p>
      )}
    </>
  );
}
