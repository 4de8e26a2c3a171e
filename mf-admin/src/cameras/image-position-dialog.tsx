import { type Image, imageNameOf, POSITION_RULES, validateForm, type Webcam } from '@lakecams/contracts';
import { Form, FormActions, ModalDialog, Notice, TextField, useForm } from '@lakecams/ui-kit';
import type { ImagePosition } from '../api/admin-api.ts';
import { LoadStatus } from '../loading/load-status.tsx';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';

type PositionField = 'lat' | 'lng' | 'direction';
type PositionValues = Record<PositionField, string>;

/** 0 for every field, or the camera's position when it has one (docs/decisions.md, "Position dialog start values"). */
export function initialPosition(image: Pick<Image, 'lat' | 'lng' | 'direction'> | null): PositionValues {
  if (!image || (image.lat === 0 && image.lng === 0)) return { lat: '0', lng: '0', direction: '0' };
  return { lat: String(image.lat), lng: String(image.lng), direction: String(image.direction) };
}

/** The body of SetPosition: the position holds from now on, named by the current minute. */
export function positionToSave(webcamId: number, values: PositionValues, now = new Date()): ImagePosition {
  return {
    webcamId,
    lat: Number(values.lat),
    lng: Number(values.lng),
    direction: Number(values.direction),
    name: imageNameOf(now),
  };
}

const validatePosition = (values: PositionValues) => validateForm(POSITION_RULES, values);

/** The image position dialog: where the camera stands and which way it looks. */
export function ImagePositionDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const latest = useLoaded(() => api.latestImage(webcam.name), 'Die aktuelle Position konnte nicht geladen werden.', [
    api,
    webcam.name,
  ]);
  return (
    <ModalDialog title={`Position von ${webcam.name}`} onClose={onClose}>
      <LoadStatus loaded={latest} loadingText="Position wird geladen …" />
      {latest.data !== undefined && (
        <PositionForm webcamId={webcam.id} initial={initialPosition(latest.data)} onClose={onClose} />
      )}
    </ModalDialog>
  );
}

function PositionForm({
  webcamId,
  initial,
  onClose,
}: {
  webcamId: number;
  initial: PositionValues;
  onClose: () => void;
}) {
  const api = useAdminApi();
  const form = useForm<PositionField>(initial, validatePosition);
  const save = useAction();

  async function submit() {
    if (!form.attemptSubmit()) return;
    const position = positionToSave(webcamId, form.values);
    await save.run(() => api.setPosition(position), 'Die Position konnte nicht gespeichert werden.');
  }

  return (
    <Form onSubmit={() => void submit()} label="Position">
      <div className="form-row">
        <TextField field={form.field('lat')} label="Breitengrad (lat)" type="number" step="any" hint="47 bis 48" />
        <TextField field={form.field('lng')} label="Längengrad (lng)" type="number" step="any" hint="5.9 bis 10.5" />
      </div>
      <TextField field={form.field('direction')} label="Blickrichtung (°)" type="number" hint="0 = Nord, bis 359" />
      {save.done && (
        <Notice tone="success">
          <p>Die Position ist gespeichert; sie gilt ab dem nächsten Bild.</p>
        </Notice>
      )}
      <ActionFailure action={save} />
      <FormActions>
        <button type="submit" disabled={!form.isValid || save.busy}>
          Position speichern
        </button>
        <button
          type="button"
          className="button--secondary"
          onClick={() => {
            form.reset();
            save.reset();
          }}
        >
          Zurücksetzen
        </button>
        <button type="button" className="button--secondary" onClick={onClose}>
          Schliessen
        </button>
      </FormActions>
    </Form>
  );
}
