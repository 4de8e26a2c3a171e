import { type RegisterModel, REGISTER_RULES, validateForm } from '@lakecams/contracts';
import {
  EmailField,
  Form,
  FormActions,
  FormCard,
  Notice,
  PageFrame,
  PhoneField,
  TextField,
  useForm,
} from '@lakecams/ui-kit';
import { useState } from 'react';
import { Link } from 'react-router';
import { CaptchaSubmitFooter } from '../captcha/captcha-submit-footer.tsx';
import { useCaptchaSubmit } from '../captcha/use-captcha-submit.ts';
import { useAccountApi } from '../api/use-account-api.ts';

const EMPTY: RegisterModel = {
  firstname: '',
  lastname: '',
  email: '',
  phoneNumber: '',
  username: '',
  password: '',
  passwordConfirm: '',
};

const validate = (values: RegisterModel) => validateForm(REGISTER_RULES, values);

export function RegisterPage() {
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  return (
    <PageFrame title="Registrieren">
      <div className="account-single">
        {registeredEmail === null ? (
          <RegisterForm onRegistered={setRegisteredEmail} />
        ) : (
          <RegisteredNotice email={registeredEmail} />
        )}
      </div>
    </PageFrame>
  );
}

function RegisterForm({ onRegistered }: { onRegistered(email: string): void }) {
  const api = useAccountApi();
  const form = useForm(EMPTY, validate);
  const sending = useCaptchaSubmit(form, 'Die Registrierung hat nicht geklappt. Bitte versuchen Sie es noch einmal.');

  const submit = () =>
    sending.submit(async (captcha) => {
      await api.register(form.values, captcha);
      onRegistered(form.values.email);
    });

  return (
    <FormCard title="Neues Konto">
      <p>Mit einem Konto sehen Sie ausgewählte Kameras in besserer Qualität.</p>
      <Form onSubmit={submit} label="Registrieren">
        <div className="form-row">
          <TextField field={form.field('firstname')} label="Vorname" autoComplete="given-name" />
          <TextField field={form.field('lastname')} label="Nachname" autoComplete="family-name" />
        </div>
        <div className="form-row">
          <EmailField field={form.field('email')} />
          <PhoneField field={form.field('phoneNumber')} />
        </div>
        <TextField field={form.field('username')} label="Benutzername" autoComplete="username" />
        <div className="form-row">
          <TextField field={form.field('password')} label="Passwort" type="password" autoComplete="new-password" />
          <TextField
            field={form.field('passwordConfirm')}
            label="Passwort bestätigen"
            type="password"
            autoComplete="new-password"
          />
        </div>
        <CaptchaSubmitFooter
          action="register"
          form={form}
          sending={sending}
          label="Registrieren"
          busyLabel="Wird registriert …"
        >
          <Link to="/login">Schon registriert? Anmelden</Link>
        </CaptchaSubmitFooter>
      </Form>
    </FormCard>
  );
}

function RegisteredNotice({ email }: { email: string }) {
  return (
    <FormCard title="Fast geschafft">
      <Notice tone="success">
        <p>
          Wir haben Ihnen eine E-Mail an <strong>{email}</strong> geschickt. Bitte prüfen Sie Ihr Postfach und
          bestätigen Sie Ihre Registrierung mit dem Link oder dem Token darin.
        </p>
      </Notice>
      <FormActions>
        <Link className="button-link" to={`/confirmRegistration?${new URLSearchParams({ email })}`}>
          Registrierung bestätigen
        </Link>
      </FormActions>
    </FormCard>
  );
}
