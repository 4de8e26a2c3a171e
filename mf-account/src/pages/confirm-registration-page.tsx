import { leaveFlashMessage } from '@lakecams/session';
import { CONFIRM_REGISTRATION_RULES, validateForm } from '@lakecams/contracts';
import { EmailField, Form, FormActions, FormCard, PageFrame, TextField, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { SubmitButton } from '../forms/submit-button.tsx';
import { useAccountApi } from '../api/use-account-api.ts';

const validate = (values: { userEmail: string; token: string }) => validateForm(CONFIRM_REGISTRATION_RULES, values);

/** Email and token from the registration mail; its link fills both in (`?email=&token=`). */
export function ConfirmRegistrationPage() {
  const api = useAccountApi();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const form = useForm({ userEmail: query.get('email') ?? '', token: query.get('token') ?? '' }, validate);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!form.attemptSubmit()) return;
    setBusy(true);
    try {
      await api.confirmRegistration(form.values.userEmail, form.values.token);
      leaveFlashMessage('Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.', '/login');
      navigate('/login', { replace: true });
    } catch {
      // A refused token changes nothing: no message, the form can be sent again (docs/product.md §5.3).
      setBusy(false);
    }
  }

  return (
    <PageFrame title="Registrierung bestätigen">
      <div className="account-single">
        <FormCard title="E-Mail-Adresse bestätigen">
          <p>Geben Sie die E-Mail-Adresse und das Token aus unserer E-Mail ein.</p>
          <Form onSubmit={submit} label="Registrierung bestätigen">
            <EmailField field={form.field('userEmail')} />
            <TextField field={form.field('token')} label="Token" autoComplete="one-time-code" />
            <FormActions>
              <SubmitButton form={form} busy={busy}>
                Bestätigen
              </SubmitButton>
            </FormActions>
          </Form>
        </FormCard>
      </div>
    </PageFrame>
  );
}
