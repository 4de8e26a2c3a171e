import { QUALITIES, type Quality, type Webcam } from '@lakecams/contracts';
import { Form, FormActions, ModalDialog, SelectField, useForm } from '@lakecams/ui-kit';
import type { CameraConfiguration } from '../api/admin-api.ts';
import { LoadStatus } from '../loading/load-status.tsx';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';
import { userLabel } from './camera-permissions-dialog.tsx';

export const ALL_OTHER_USERS = 'Alle anderen Benutzer';

const configurationUser = (configuration: CameraConfiguration) =>
  configuration.user ? userLabel(configuration.user) : ALL_OTHER_USERS;

type ConfigurationField = 'userId' | 'quality';

/** The camera quality configuration dialog: a quality per user, or for all other users. */
export function CameraConfigurationDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const configurations = useLoaded(
    () => api.configurations(webcam.id),
    'Die Konfiguration konnte nicht geladen werden.',
    [api, webcam.id],
  );
  const users = useLoaded(() => api.allUsers(), 'Die Benutzer konnten nicht geladen werden.', [api]);
  const form = useForm<ConfigurationField>({ userId: '', quality: 'MEDIUM' }, (values) =>
    values.quality ? {} : { quality: 'Qualität wird benötigt' },
  );
  const change = useAction();

  async function run(call: () => Promise<void>, failure: string) {
    if (await change.run(call, failure)) configurations.reload();
  }

  const submit = () => {
    if (!form.attemptSubmit()) return;
    void run(
      () => api.setConfiguration(webcam.id, form.values.userId || null, form.values.quality as Quality),
      'Die Qualität konnte nicht gespeichert werden.',
    );
  };

  const userChoices = (users.data ?? []).map((user) => ({ value: user.id, label: userLabel(user) }));
  return (
    <ModalDialog title={`Qualität für ${webcam.name}`} onClose={onClose}>
      <LoadStatus loaded={configurations} loadingText="Konfiguration wird geladen …" />
      {configurations.data && configurations.data.length === 0 && <p className="muted">Noch keine Konfiguration.</p>}
      <p className="muted" id="quality-rule">
        «{ALL_OTHER_USERS}» gilt für angemeldete Benutzer ohne eigene Einstellung. Besucher ohne Konto sehen immer POOR
        (gebuchte Partnerseiten ausgenommen); angemeldete Benutzer mindestens LOW, Premium mindestens MEDIUM.
      </p>
      {configurations.data && configurations.data.length > 0 && (
        <ul className="item-list" aria-label="Konfigurationen">
          {configurations.data.map((configuration) => (
            <li key={configuration.id} className="item-list__item">
              <span>
                <strong>{configurationUser(configuration)}</strong>: {configuration.quality}
              </span>
              <button
                type="button"
                className="button--secondary button--small"
                aria-label={`Konfiguration von ${configurationUser(configuration)} entfernen`}
                disabled={change.busy}
                onClick={() =>
                  void run(
                    () => api.removeConfiguration(configuration.id),
                    'Die Konfiguration konnte nicht entfernt werden.',
                  )
                }
              >
                Entfernen
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3 className="dialog-section-title">Qualität festlegen</h3>
      <Form onSubmit={submit} label="Qualität festlegen">
        <div className="form-row">
          <SelectField
            field={form.field('userId')}
            label="Benutzer"
            placeholder={ALL_OTHER_USERS}
            options={userChoices}
          />
          <SelectField field={form.field('quality')} label="Qualität" placeholder="Bitte wählen" options={QUALITIES} />
        </div>
        <ActionFailure action={change} />
        <FormActions>
          <button type="submit" disabled={change.busy}>
            Festlegen
          </button>
          <button type="button" className="button--secondary" onClick={onClose}>
            Schliessen
          </button>
        </FormActions>
      </Form>
    </ModalDialog>
  );
}
