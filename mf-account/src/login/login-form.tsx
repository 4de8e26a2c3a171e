import { LOGIN_RULES, validateForm } from '@lakecams/contracts';
import { ApiError, useSessionClient } from '@lakecams/session';
import { Form, FormActions, FormCard, Notice, TextField, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import { Link } from 'react-router';
import { SubmitButton } from '../forms/submit-button.tsx';

const validate = (values: { username: string; password: string }) => validateForm(LOGIN_RULES, values);

type Failure = { kind: 'credentials' | 'unconfirmed' | 'other'; message: string };

function loginFailure(error: unknown): Failure {
  if (error instanceof ApiError && error.status === 401) {
    return { kind: 'credentials', message: 'Benutzername oder Passwort ist falsch.' };
  }
  if (error instanceof ApiError && error.status === 403) {
    return { kind: 'unconfirmed', message: 'Ihre E-Mail-Adresse ist noch nicht bestätigt.' };
  }
  return {
    kind: 'other',
    message: 'Die Anmeldung ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.',
  };
}

/**
 * Signs in and then hands over to `onSignedIn` (the page navigates to the return url); `onBusy` tells the page
 * a sign-in is under way, so it keeps the form until it has navigated.
 */
export function LoginForm({ onBusy, onSignedIn }: { onBusy?(busy: boolean): void; onSignedIn(): void }) {
  const session = useSessionClient();
  const form = useForm({ username: '', password: '' }, validate);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  async function submit() {
    if (!form.attemptSubmit()) return;
    setBusy(true);
    setFailure(null);
    onBusy?.(true);
    try {
      await session.login(form.values);
      onSignedIn();
    } catch (error) {
      setFailure(loginFailure(error));
      setBusy(false);
      onBusy?.(false);
    }
  }

  return (
    <FormCard title="Mit Ihrem Konto anmelden">
      <Form onSubmit={submit} label="Anmelden">
        <TextField field={form.field('username')} label="Benutzername" autoComplete="username" />
        <TextField field={form.field('password')} label="Passwort" type="password" autoComplete="current-password" />
        {failure && (
          <Notice tone="error">
            <p>{failure.message}</p>
            {failure.kind === 'unconfirmed' && (
              <p>
                <Link to="/confirmRegistration">Registrierung jetzt bestätigen</Link>
              </p>
            )}
          </Notice>
        )}
        <FormActions>
          <SubmitButton form={form} busy={busy}>
            {busy ? 'Anmelden …' : 'Anmelden'}
          </SubmitButton>
          <Link to="/register">Noch kein Konto? Registrieren</Link>
        </FormActions>
      </Form>
    </FormCard>
  );
}
