import type { UserSummary, Webcam } from '@lakecams/contracts';
import { FormActions, ModalDialog, Notice } from '@lakecams/ui-kit';
import { useId, useState } from 'react';
import type { UserRef } from '../api/admin-api.ts';
import { LoadStatus } from '../loading/load-status.tsx';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';

export const userLabel = (user: { userName: string; email: string }) =>
  user.email ? `${user.userName} (${user.email})` : user.userName;

/** Whether a user matches what the admin typed into the filter. */
export function matchesFilter(user: UserSummary, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return [user.userName, user.email, user.firstName, user.lastName].some((text) =>
    text?.toLowerCase().includes(needle),
  );
}

/** The camera permission dialog: the users with access to a camera, chosen from all users. */
export function CameraPermissionsDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const filterId = useId();
  const loaded = useLoaded(
    async () => {
      const [users, permitted] = await Promise.all([api.allUsers(), api.permittedUsers(webcam.id)]);
      return { users, permitted: new Set(permitted.map((user) => user.id.toLowerCase())) };
    },
    'Die Berechtigungen konnten nicht geladen werden.',
    [api, webcam.id],
  );
  const [chosen, setChosen] = useState<ReadonlySet<string> | null>(null);
  const [filter, setFilter] = useState('');
  const save = useAction();
  const selected = chosen ?? loaded.data?.permitted ?? new Set<string>();

  function toggle(id: string, on: boolean) {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
    save.reset();
  }

  async function saveUsers() {
    const users: UserRef[] = (loaded.data?.users ?? [])
      .filter((user) => selected.has(user.id.toLowerCase()))
      .map(({ id, userName, email }) => ({ id, userName, email }));
    await save.run(
      () => api.setPermittedUsers(webcam.id, users),
      'Die Berechtigungen konnten nicht gespeichert werden.',
    );
  }

  const users = loaded.data?.users ?? [];
  const shown = users.filter((user) => matchesFilter(user, filter));
  return (
    <ModalDialog title={`Berechtigungen für ${webcam.name}`} onClose={onClose}>
      <LoadStatus loaded={loaded} loadingText="Benutzer werden geladen …" />
      {loaded.data && (
        <>
          <p className="muted">
            {selected.size} von {users.length} Benutzern haben Zugriff auf diese Webcam.
          </p>
          <div className="form-field">
            <label htmlFor={filterId}>Benutzer suchen</label>
            <input id={filterId} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
          </div>
          <fieldset className="choice-list">
            <legend className="visually-hidden">Benutzer mit Zugriff</legend>
            {shown.map((user) => (
              <label key={user.id} className="choice-list__item">
                <input
                  type="checkbox"
                  checked={selected.has(user.id.toLowerCase())}
                  onChange={(event) => toggle(user.id.toLowerCase(), event.target.checked)}
                />
                <span>
                  {`${user.firstName} ${user.lastName}`.trim() || user.userName}{' '}
                  <span className="muted">{userLabel(user)}</span>
                </span>
              </label>
            ))}
            {shown.length === 0 && <p className="muted">Kein Benutzer passt zur Suche.</p>}
          </fieldset>
          {save.done && (
            <Notice tone="success">
              <p>Die Berechtigungen sind gespeichert.</p>
            </Notice>
          )}
          <ActionFailure action={save} />
          <FormActions>
            <button type="button" disabled={save.busy} onClick={() => void saveUsers()}>
              Speichern
            </button>
            <button type="button" className="button--secondary" onClick={onClose}>
              Schliessen
            </button>
          </FormActions>
        </>
      )}
    </ModalDialog>
  );
}
