import {
  CONTACT_RULES,
  CONTACT_SUBJECTS,
  type ContactModel,
  type UserSummary,
  validateForm,
} from '@lakecams/contracts';
import { leaveFlashMessage, useSession } from '@lakecams/session';
import {
  EmailField,
  Form,
  FormCard,
  PageFrame,
  PhoneField,
  SelectField,
  TextAreaField,
  TextField,
  useForm,
} from '@lakecams/ui-kit';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { CaptchaSubmitFooter } from '../captcha/captcha-submit-footer.tsx';
import { useCaptchaSubmit } from '../captcha/use-captcha-submit.ts';
import { useAccountApi } from '../api/use-account-api.ts';

const validate = (values: ContactModel) => validateForm(CONTACT_RULES, values);

function knownValues(user: UserSummary | null): ContactModel {
  return {
    name: user ? `${user.firstName} ${user.lastName}`.trim() : '',
    mail: user?.email ?? '',
    phone: user?.phoneNumber ?? '',
    subject: '',
    message: '',
  };
}

/** The contact form; after sending, home (docs/product.md §5.6). */
export function ContactPage() {
  const api = useAccountApi();
  const navigate = useNavigate();
  const { applicationUser } = useSession();
  // A signed-in visitor need not type what we know.
  const form = useForm<keyof ContactModel>(knownValues(applicationUser), validate);
  // Hydrating the gateway's rendering (anonymous), the user arrives one render later: filled in unless typed in.
  const filledFor = useRef(applicationUser);
  useEffect(() => {
    if (!applicationUser || filledFor.current === applicationUser) return;
    filledFor.current = applicationUser;
    if (Object.values(form.values).every((value) => value === '')) form.reset(knownValues(applicationUser));
  });
  const sending = useCaptchaSubmit(
    form,
    'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.',
  );

  const submit = () =>
    sending.submit(async (captcha) => {
      await api.contact(form.values, captcha);
      leaveFlashMessage('Vielen Dank! Ihre Nachricht ist gesendet, wir melden uns so bald wie möglich.', '/');
      navigate('/');
    });

  return (
    <PageFrame title="Kontakt">
      <div className="account-single">
        <FormCard title="Schreiben Sie uns">
          <p>
            Fragen zur Webseite, ein Vorschlag für einen neuen Kamerastandort oder Interesse an einer eigenen Kamera?
          </p>
          <Form onSubmit={submit} label="Kontakt">
            <TextField field={form.field('name')} label="Name" autoComplete="name" />
            <div className="form-row">
              <EmailField field={form.field('mail')} />
              <PhoneField field={form.field('phone')} />
            </div>
            <SelectField
              field={form.field('subject')}
              label="Betreff"
              placeholder="Bitte wählen …"
              options={CONTACT_SUBJECTS}
            />
            <TextAreaField field={form.field('message')} label="Nachricht" />
            <CaptchaSubmitFooter
              action="contact"
              form={form}
              sending={sending}
              label="Senden"
              busyLabel="Wird gesendet …"
            />
          </Form>
        </FormCard>
      </div>
    </PageFrame>
  );
}
