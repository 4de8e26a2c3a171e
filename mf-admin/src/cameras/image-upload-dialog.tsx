import type { Webcam } from '@lakecams/contracts';
import { FormActions, ModalDialog, Notice } from '@lakecams/ui-kit';
import { useId, useState } from 'react';
import { freshCameraImagePath } from '../api/picture-urls.ts';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp';

/** The file upload dialog: a picture taken by hand becomes the camera's current image. */
export function ImageUploadDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const upload = useAction();
  // Shows the camera's image past every cache once the upload is through.
  const [uploadedAt, setUploadedAt] = useState(0);

  async function send() {
    if (!file) return;
    const uploaded = await upload.run(
      () => api.uploadImage(webcam.id, file, file.name),
      'Das Bild konnte nicht hochgeladen werden.',
    );
    if (uploaded) setUploadedAt(Date.now());
  }

  return (
    <ModalDialog title={`Bild für ${webcam.name} hochladen`} onClose={onClose}>
      <form
        className="form"
        aria-label="Bild hochladen"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
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
              upload.reset();
            }}
          />
        </div>
        {upload.done && (
          <Notice tone="success">
            <p>Das Bild ist jetzt das aktuelle Bild der Webcam.</p>
            <img
              className="uploaded-image"
              src={freshCameraImagePath(webcam.name, uploadedAt)}
              alt={`Aktuelles Bild von ${webcam.name}`}
            />
          </Notice>
        )}
        <ActionFailure action={upload} />
        <FormActions>
          <button type="submit" disabled={!file || upload.busy}>
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
