import { leaveFlashMessage } from '@lakecams/session';
import { RESET_PASSWORD_RULES, type ResetPasswordModel, validateForm } from '@lakecams/contracts';
import {
  EmailField,
  Form,
  FormActions,
  FormCard,
  failureMessage,
  Notice,
  PageFrame,
  TextField,
  useForm,
} from '@lakecams/ui-kit';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { SubmitButton } from '../forms/submit-button.tsx';
import { useAccountApi } from '../api/use-account-api.ts';

const validate = (values: ResetPasswordModel) => validateForm(RESET_PASSWORD_RULES, values);

/**
 * A new password with the code from the recover-password mail; its link fills in email and code (docs/product.md §5.4).
 */
export function ResetPasswordPage() {
  const api = useAccountApi();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const form = useForm<keyof ResetPasswordModel>(
    {
      email: query.get('email') ?? '',
      username: '',
      password: '',
      passwordConfirm: '',
      token: query.get('code') ?? query.get('token') ?? '',
    },
    validate,
  );
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit() {
    if (!form.attemptSubmit()) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.resetPassword(form.values);
      leaveFlashMessage('Ihr Passwort ist geändert. Melden Sie sich mit dem neuen Passwort an.', '/login');
      navigate('/login', { replace: true });
    } catch (error) {
      setFailure(
        failureMessage(error, 'Das Passwort konnte nicht geändert werden. Bitte versuchen Sie es noch einmal.'),
      );
      setBusy(false);
    }
  }

  return (
    <PageFrame title="Passwort zurücksetzen">
      <div className="account-single">
        <FormCard title="Neues Passwort setzen">
          <Form onSubmit={submit} label="Passwort zurücksetzen">
            <div className="form-row">
              <EmailField field={form.field('email')} />
              <TextField field={form.field('username')} label="Benutzername" autoComplete="username" />
            </div>
            <div className="form-row">
              <TextField
                field={form.field('password')}
                label="Neues Passwort"
                type="password"
                autoComplete="new-password"
              />
              <TextField
                field={form.field('passwordConfirm')}
                label="Passwort bestätigen"
                type="password"
                autoComplete="new-password"
              />
            </div>
            <TextField field={form.field('token')} label="Code aus der E-Mail" autoComplete="one-time-code" />
            {failure && (
              <Notice tone="error">
                <p>{failure}</p>
              </Notice>
            )}
            <FormActions>
              <SubmitButton form={form} busy={busy}>
                Passwort ändern
              </SubmitButton>
            </FormActions>
          </Form>
        </FormCard>
      </div>
    </PageFrame>
  );
}
