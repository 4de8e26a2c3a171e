import { type FormState, failureMessage } from '@lakecams/ui-kit';
import { useState } from 'react';
import { CAPTCHA_PENDING_HINT } from '../forms/submit-button.tsx';

export interface CaptchaSubmit {
  /** The form is being sent; it stays so after a success, when the page moves on. */
  busy: boolean;
  /** Why the last send failed, for the visitor; null otherwise. */
  failure: string | null;
  /** The CaptchaField's `key`: a new one after a failed send, for a fresh challenge. */
  captchaKey: number;
  /** The CaptchaField's props besides its action. */
  captcha: { onChange(payload: string | null): void; solveNow: boolean };
  /** SubmitButton's `blockedBy`: the captcha is not solved yet. */
  blockedBy: string | null;
  /** Sends the form with the solved payload once the form is valid and the captcha solved. */
  submit(send: (captcha: string) => Promise<void>): Promise<void>;
}

/** The sending state of a form guarded by a captcha (contact, register). */
export function useCaptchaSubmit(form: Pick<FormState<string>, 'attemptSubmit'>, failureText: string): CaptchaSubmit {
  const [payload, setPayload] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(send: (captcha: string) => Promise<void>) {
    if (!form.attemptSubmit() || !payload) return;
    setBusy(true);
    setFailure(null);
    try {
      await send(payload);
    } catch (error) {
      setFailure(failureMessage(error, failureText));
      // A payload is good for one request: the next attempt needs a new challenge, solved at once.
      setPayload(null);
      setRound((current) => current + 1);
      setBusy(false);
    }
  }

  return {
    busy,
    failure,
    captchaKey: round,
    captcha: { onChange: setPayload, solveNow: round > 0 },
    blockedBy: payload ? null : CAPTCHA_PENDING_HINT,
    submit,
  };
}
