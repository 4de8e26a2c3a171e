import { type Layer, validateForm } from '@lakecams/contracts';
import { LAYER_RULES } from '@lakecams/contracts/cron';
import { FormActions, ModalDialog, TextField, useForm } from '@lakecams/ui-kit';
import { useEffect, useId, useState } from 'react';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { LEVEL_IMAGE_HINTS, LEVEL_TITLES } from './layer-levels.ts';

export const LAYER_IMAGE_TYPES = 'image/png,image/jpeg,image/webp';

const validateCron = (values: { cron: string }) => validateForm(LAYER_RULES, values);

/**
 * Edits a layer: cron and enabled, upload an image. A new layer needs an image to be saved;
 * an existing one may keep its image. Cancel discards the edit.
 */
export function LayerEditorDialog({
  layer,
  onSaved,
  onClose,
}: {
  /** id 0: a new layer. */
  layer: Layer;
  onSaved: (saved: Layer) => void;
  onClose: () => void;
}) {
  const api = useAdminApi();
  const fileId = useId();
  const enabledId = useId();
  const form = useForm<'cron'>({ cron: layer.cron }, validateCron);
  const [enabled, setEnabled] = useState(layer.enabled);
  const [file, setFile] = useState<File | null>(null);
  const [filePreview, setFilePreview] = useState<string | null>(null);
  const saving = useAction();
  const isNew = layer.id === 0;

  useEffect(() => {
    if (!file) return setFilePreview(null);
    const url = URL.createObjectURL(file);
    setFilePreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // The message shows at once: it is why the save buttons are disabled.
  const cronField = { ...form.field('cron'), error: form.errors.cron ?? null };

  async function save(withImage: boolean) {
    if (!form.attemptSubmit() || (withImage && !file)) return;
    const changed = { ...layer, cron: form.values.cron.trim(), enabled };
    const image = withImage ? (file ?? undefined) : undefined;
    await saving.run(async () => {
      const id = await api.saveLayer({ ...changed, id: isNew ? null : layer.id, file: image });
      onSaved({ ...changed, id });
    }, 'Der Layer konnte nicht gespeichert werden.');
  }

  return (
    <ModalDialog
      title={`${LEVEL_TITLES[layer.level]}: ${isNew ? 'neuer Layer' : `Layer ${layer.id} bearbeiten`}`}
      onClose={onClose}
    >
      <form
        className="form"
        aria-label="Layer"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save(true);
        }}
      >
        <TextField
          field={cronField}
          label="Cron"
          hint="Minute Stunde Tag Monat Wochentag, z. B. */5 * * * * (alle 5 Minuten)"
        />
        <div className="checkbox-field">
          <input
            id={enabledId}
            type="checkbox"
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
          />
          <label htmlFor={enabledId}>Aktiv</label>
        </div>
        <div className="form-field">
          <label htmlFor={fileId}>{isNew ? 'Bild des Layers' : 'Neues Bild des Layers'}</label>
          <input
            id={fileId}
            type="file"
            accept={LAYER_IMAGE_TYPES}
            aria-describedby={`${fileId}-hint`}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          <div className="form-field__meta">
            <span id={`${fileId}-hint`}>{LEVEL_IMAGE_HINTS[layer.level]}</span>
          </div>
        </div>
        {filePreview && <img className="layer-image layer-image--large" src={filePreview} alt="Gewähltes Bild" />}
        <ActionFailure action={saving} />
        <FormActions>
          <button type="submit" disabled={!file || !form.isValid || saving.busy}>
            Mit Bild speichern
          </button>
          {!isNew && (
            <button
              type="button"
              className="button--secondary"
              disabled={!form.isValid || saving.busy}
              onClick={() => void save(false)}
            >
              Speichern, Bild behalten
            </button>
          )}
          <button type="button" className="button--secondary" onClick={onClose}>
            Abbrechen
          </button>
        </FormActions>
      </form>
    </ModalDialog>
  );
}
