import type { Webcam } from '@lakecams/contracts';
import { FormActions, ModalDialog, Notice } from '@lakecams/ui-kit';
import { useId, useState } from 'react';
import { cameraImagePath, failureMessage } from '../shared/admin-api.ts';
import { useAdminApi } from '../shared/use-admin-api.ts';

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp';

/** Spec §2 "file upload" dialog: a picture taken by hand becomes the camera's current image. */
export function ImageUploadDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<'idle' | 'uploading' | { uploadedAt: number } | { failure: string }>('idle');

  async function upload() {
    if (!file) return;
    setState('uploading');
    try {
      await api.uploadImage(webcam.id, file, file.name);
      setState({ uploadedAt: Date.now() });
    } catch (error) {
      setState({ failure: failureMessage(error, 'Das Bild konnte nicht hochgeladen werden.') });
    }
  }

  return (
    <ModalDialog title={`Bild für ${webcam.name} hochladen`} onClose={onClose}>
      <form
        className="form"
        aria-label="Bild hochladen"
        onSubmit={(event) => {
          event.preventDefault();
          void upload();
        }}
      >
        <div className="form-field">
          <label htmlFor={inputId}>Bilddatei (JPEG, PNG oder WebP)</label>
          <input
            id={inputId}
            type="file"
            accept={IMAGE_TYPES}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setState('idle');
            }}
          />
        </div>
        {typeof state === 'object' && 'uploadedAt' in state && (
          <Notice tone="success">
            <p>Das Bild ist jetzt das aktuelle Bild der Webcam.</p>
            <img
              className="uploaded-image"
              src={`${cameraImagePath(webcam.name)}?v=${state.uploadedAt}`}
              alt={`Aktuelles Bild von ${webcam.name}`}
            />
          </Notice>
        )}
        {typeof state === 'object' && 'failure' in state && (
          <Notice tone="error">
            <p>{state.failure}</p>
          </Notice>
        )}
        <FormActions>
          <button type="submit" disabled={!file || state === 'uploading'}>
            Hochladen
          </button>
          <button type="button" className="button--secondary" onClick={onClose}>
            Schliessen
          </button>
        </FormActions>
      </form>
    </ModalDialog>
  );
}
