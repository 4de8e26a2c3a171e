import type { CaptchaAction } from '@lakecams/contracts';
import { FormActions, type FormState, Notice } from '@lakecams/ui-kit';
import type { ReactNode } from 'react';
import { SubmitButton } from '../forms/submit-button.tsx';
import { CaptchaField } from './captcha-field.tsx';
import type { CaptchaSubmit } from './use-captcha-submit.ts';

/** The end of a form guarded by a captcha: the challenge, why the last send failed, and the submit. */
export function CaptchaSubmitFooter({
  action,
  form,
  sending,
  label,
  busyLabel,
  children,
}: {
  action: CaptchaAction;
  form: Pick<FormState<string>, 'isValid' | 'attemptSubmit'>;
  sending: CaptchaSubmit;
  label: string;
  busyLabel: string;
  /** Beside the submit, e.g. a link. */
  children?: ReactNode;
}) {
  return (
    <>
      <CaptchaField key={sending.captchaKey} action={action} {...sending.captcha} />
      {sending.failure && (
        <Notice tone="error">
          <p>{sending.failure}</p>
        </Notice>
      )}
      <FormActions>
        <SubmitButton form={form} busy={sending.busy} blockedBy={sending.blockedBy}>
          {sending.busy ? busyLabel : label}
        </SubmitButton>
        {children}
      </FormActions>
    </>
  );
}
