import { REFERER_RULES, type RefererUser, validateForm } from '@lakecams/contracts';
import { Form, ModalDialog, SelectField, TextField, useForm } from '@lakecams/ui-kit';
import type { UserRef } from '../api/admin-api.ts';
import { LoadStatus } from '../loading/load-status.tsx';
import { SaveOrCancel, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';

type RefererField = 'userEmail' | 'url';

const validateReferer = (values: Record<RefererField, string>) => validateForm(REFERER_RULES, values);

/** The dropdown lists only users that have an email: a referer names its user by email. */
export function emailChoices(users: readonly UserRef[], current?: string) {
  const choices = users
    .filter((user) => user.email)
    .map((user) => ({ value: user.email, label: `${user.email} (${user.userName})` }));
  // A referer whose user is no longer listed keeps its email as a choice.
  if (current && !choices.some((choice) => choice.value === current))
    choices.unshift({ value: current, label: current });
  return choices;
}

/** The user referers dialog: a page (url) of a user. Saving answers the whole list. */
export function RefererUserDialog({
  referer,
  onSaved,
  onFailed,
  onClose,
}: {
  referer: RefererUser | null;
  onSaved: (list: RefererUser[]) => void;
  /** A failed save refreshes the list. */
  onFailed: () => void;
  onClose: () => void;
}) {
  const api = useAdminApi();
  const users = useLoaded(() => api.usersWithEmail(), 'Die Benutzer konnten nicht geladen werden.', [api]);
  const form = useForm<RefererField>(
    { userEmail: referer?.userEmail ?? '', url: referer?.url ?? 'https://' },
    validateReferer,
  );
  const save = useAction();

  async function submit() {
    if (!form.attemptSubmit()) return;
    const { userEmail, url } = form.values;
    const changed = { ...(referer ? { id: referer.id } : {}), userEmail, url: url.trim() };
    const saved = await save.run(
      async () => onSaved(await api.saveRefererUser(changed)),
      'Der Referer konnte nicht gespeichert werden.',
    );
    if (!saved) onFailed();
  }

  return (
    <ModalDialog title={referer ? 'Referer bearbeiten' : 'Referer hinzufügen'} onClose={onClose}>
      <LoadStatus loaded={users} loadingText="Benutzer werden geladen …" />
      <Form onSubmit={() => void submit()} label="Referer">
        <SelectField
          field={form.field('userEmail')}
          label="Benutzer"
          placeholder="Bitte wählen"
          options={emailChoices(users.data ?? [], referer?.userEmail)}
        />
        <TextField
          field={form.field('url')}
          label="URL der Seite"
          type="text"
          placeholder="https://www.beispiel.ch/"
          hint="Die Seite, die Bilder einbettet, mit https://"
        />
        <SaveOrCancel action={save} onCancel={onClose} />
      </Form>
    </ModalDialog>
  );
}
