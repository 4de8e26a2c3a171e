import { CODE_FEATURES, ROLES } from '@lakecams/contracts';
import { Form, FormActions, ModalDialog, SelectField, TextField, useForm } from '@lakecams/ui-kit';
import { useState } from 'react';
import { SaveOrCancel, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';

/** CreateCodes makes at most this many at once. */
export const MAX_CODES = 1000;

type CodesField = 'feature' | 'count';

function validateCodes(values: Record<CodesField, string>) {
  const count = Number(values.count);
  return {
    feature: values.feature ? undefined : 'Funktion wird benötigt',
    count:
      Number.isInteger(count) && count >= 1 && count <= MAX_CODES
        ? undefined
        : `Eine ganze Zahl von 1 bis ${MAX_CODES}`,
  };
}

/** Makes new codes to hand out; they are shown once here, and listed on the page when redeemed. */
export function CreateCodesDialog({ onClose }: { onClose: () => void }) {
  const api = useAdminApi();
  const form = useForm<CodesField>({ feature: ROLES.premium, count: '1' }, validateCodes);
  const create = useAction();
  const [created, setCreated] = useState<string[] | null>(null);

  async function submit() {
    if (!form.attemptSubmit()) return;
    const { feature, count } = form.values;
    await create.run(
      async () => setCreated(await api.createCodes(feature, Number(count))),
      'Die Codes konnten nicht erstellt werden.',
    );
  }

  if (created) {
    return (
      <ModalDialog title="Codes erstellt" onClose={onClose}>
        <p>
          {created.length === 1 ? 'Dieser Code ist' : `Diese ${created.length} Codes sind`} für{' '}
          <strong>{form.values.feature}</strong> bereit.{' '}
          {created.length === 1
            ? 'Geben Sie ihn weiter: eingelöst erscheint er in der Liste.'
            : 'Geben Sie sie weiter: eingelöst erscheinen sie in der Liste.'}
        </p>
        <ul className="created-codes" aria-label="Neue Codes">
          {created.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <FormActions>
          <button type="button" onClick={onClose}>
            Fertig
          </button>
        </FormActions>
      </ModalDialog>
    );
  }

  return (
    <ModalDialog title="Codes erstellen" onClose={onClose}>
      <Form onSubmit={() => void submit()} label="Codes erstellen">
        <SelectField
          field={form.field('feature')}
          label="Funktion"
          placeholder="Bitte wählen"
          options={CODE_FEATURES}
        />
        <TextField field={form.field('count')} label="Anzahl" type="number" hint={`1 bis ${MAX_CODES}`} />
        <SaveOrCancel action={create} saveLabel="Erstellen" onCancel={onClose} />
      </Form>
    </ModalDialog>
  );
}
