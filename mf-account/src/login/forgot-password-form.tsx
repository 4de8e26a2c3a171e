import { FORGOT_PASSWORD_RULES, validateForm } from '@lakecams/contracts';
import { EmailField, Form, FormActions, FormCard, Notice, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import { Link } from 'react-router';
import { SubmitButton } from '../forms/submit-button.tsx';
import { useAccountApi } from '../api/use-account-api.ts';

const validate = (values: { email: string }) => validateForm(FORGOT_PASSWORD_RULES, values);

/** Asks for a reset code by mail; the answer never tells whether the address is known (docs/product.md §5.1). */
export function ForgotPasswordForm() {
  const api = useAccountApi();
  const form = useForm({ email: '' }, validate);
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [sentTo, setSentTo] = useState('');

  async function submit() {
    if (!form.attemptSubmit()) return;
    setState('sending');
    try {
      await api.recoverPassword(form.values.email);
      setSentTo(form.values.email);
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  return (
    <FormCard title="Passwort vergessen?">
      <p>Wir schicken Ihnen einen Code, mit dem Sie ein neues Passwort setzen können.</p>
      <Form onSubmit={submit} label="Passwort vergessen">
        <EmailField field={form.field('email')} />
        {state === 'sent' && (
          <Notice tone="success">
            <p>Falls {sentTo} bei uns registriert ist, ist eine E-Mail mit dem Code unterwegs.</p>
            <p>
              <Link to={`/resetPassword?${new URLSearchParams({ email: sentTo })}`}>
                Code eingeben und Passwort setzen
              </Link>
            </p>
          </Notice>
        )}
        {state === 'failed' && (
          <Notice tone="error">
            <p>Die E-Mail konnte gerade nicht verschickt werden. Bitte versuchen Sie es später noch einmal.</p>
          </Notice>
        )}
        <FormActions>
          <SubmitButton form={form} busy={state === 'sending'} className="button--secondary">
            Code anfordern
          </SubmitButton>
        </FormActions>
      </Form>
    </FormCard>
  );
}
