import { CODE_RULES, validateForm } from '@lakecams/contracts';
import { Form, FormActions, FormCard, TextField, useForm } from '@lakecams/ui-kit';
import { type ReactNode, useState } from 'react';
import { SubmitButton } from '../forms/submit-button.tsx';
import { useAccountApi } from '../api/use-account-api.ts';

const validate = (values: { code: string }) => validateForm(CODE_RULES, values);

/**
 * Redeems a feature code; errors are ignored, so the roles and the list below tell the outcome (docs/product.md §5.5).
 */
export function CodeForm({ onRedeemed, children }: { onRedeemed(): Promise<void>; children?: ReactNode }) {
  const api = useAccountApi();
  const form = useForm({ code: '' }, validate);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!form.attemptSubmit()) return;
    setBusy(true);
    await api.registerCode(form.values.code.trim());
    await onRedeemed();
    form.reset();
    setBusy(false);
  }

  return (
    <FormCard title="Code einlösen">
      <p>Mit einem Code schalten Sie zusätzliche Funktionen frei.</p>
      <Form onSubmit={submit} label="Code einlösen">
        <TextField field={form.field('code')} label="Code" autoComplete="off" />
        <FormActions>
          <button type="button" className="button--secondary" onClick={() => form.reset()}>
            Zurücksetzen
          </button>
          <SubmitButton form={form} busy={busy}>
            Einlösen
          </SubmitButton>
        </FormActions>
      </Form>
      {children}
    </FormCard>
  );
}
