import { NAME_HINT, PROFILE_RULES, type ProfileUpdate, type UserSummary, validateForm } from '@lakecams/contracts';
import { useSessionClient } from '@lakecams/session';
import { Form, FormActions, FormCard, failureMessage, Notice, PhoneField, TextField, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import { SubmitButton } from '../forms/submit-button.tsx';
import { useAccountApi } from '../api/use-account-api.ts';

const validate = (values: ProfileUpdate) => validateForm(PROFILE_RULES, values);
const NAME_MAX = PROFILE_RULES.lastName.maxLength?.value;

const profileOf = (user: UserSummary): ProfileUpdate => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  phoneNumber: user.phoneNumber ?? '',
});

/**
 * First name, last name and phone of the acting user, with Zurücksetzen and Profil speichern (docs/product.md §5.5).
 */
export function ProfileForm({ user }: { user: UserSummary }) {
  const api = useAccountApi();
  const session = useSessionClient();
  const form = useForm<keyof ProfileUpdate>(profileOf(user), validate);
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | { failure: string }>('idle');

  async function submit() {
    if (!form.attemptSubmit()) return;
    setState('saving');
    try {
      const updated = await api.updateProfile(form.values);
      session.actingUserUpdated(updated);
      form.reset(profileOf(updated));
      setState('saved');
    } catch (error) {
      setState({ failure: failureMessage(error, 'Das Profil konnte nicht gespeichert werden.') });
    }
  }

  return (
    <FormCard title="Profil">
      <Form onSubmit={submit} label="Profil">
        <div className="form-row">
          <TextField field={form.field('firstName')} label="Vorname" autoComplete="given-name" hint={NAME_HINT} />
          <TextField
            field={form.field('lastName')}
            label="Nachname"
            autoComplete="family-name"
            hint={NAME_HINT}
            counterMax={NAME_MAX}
          />
        </div>
        <PhoneField field={form.field('phoneNumber')} />
        {state === 'saved' && (
          <Notice tone="success">
            <p>Ihr Profil ist gespeichert.</p>
          </Notice>
        )}
        {typeof state === 'object' && (
          <Notice tone="error">
            <p>{state.failure}</p>
          </Notice>
        )}
        <FormActions>
          <button
            type="button"
            className="button--secondary"
            onClick={() => {
              form.reset();
              setState('idle');
            }}
          >
            Zurücksetzen
          </button>
          <SubmitButton form={form} busy={state === 'saving'}>
            Profil speichern
          </SubmitButton>
        </FormActions>
      </Form>
    </FormCard>
  );
}
