import { CAMERA_RULES, validateForm, WEBCAM_TYPES, type Webcam, type WebcamType } from '@lakecams/contracts';
import { Form, ModalDialog, SelectField, TextField, useForm } from '@lakecams/ui-kit';
import { SaveOrCancel, useAction } from '../actions/use-action.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';

type CameraField = 'name' | 'pattern' | 'distance' | 'angle' | 'intervalMin' | 'webcamType';
type CameraValues = Record<CameraField, string>;

/** A new camera starts with what most lake cameras have. */
const NEW_CAMERA: CameraValues = {
  name: '',
  pattern: '',
  distance: '5',
  angle: '90',
  intervalMin: '10',
  webcamType: 'STATIC',
};

export function cameraValues(webcam: Webcam | null): CameraValues {
  if (!webcam) return NEW_CAMERA;
  return {
    name: webcam.name,
    pattern: webcam.pattern,
    distance: String(webcam.distance),
    angle: String(webcam.angle),
    intervalMin: String(webcam.intervalMin),
    webcamType: webcam.webcamType,
  };
}

export function validateCamera(values: CameraValues) {
  const errors: Partial<CameraValues> = validateForm(CAMERA_RULES, values);
  if (!(WEBCAM_TYPES as readonly string[]).includes(values.webcamType)) errors.webcamType = 'Typ wird benötigt';
  return errors;
}

/** The body of Webcam/Set: id 0 creates the camera. */
export function webcamOf(id: number, values: CameraValues): Webcam {
  return {
    id,
    name: values.name.trim(),
    pattern: values.pattern.trim(),
    distance: Number(values.distance),
    angle: Number(values.angle),
    intervalMin: Number(values.intervalMin),
    webcamType: values.webcamType as WebcamType,
  };
}

/** The camera edit dialog: add a camera (webcam null) or change one. */
export function CameraEditDialog({
  webcam,
  onSaved,
  onClose,
}: {
  webcam: Webcam | null;
  onSaved: () => void;
  onClose: () => void;
}) {
  const api = useAdminApi();
  const form = useForm<CameraField>(cameraValues(webcam), validateCamera);
  const save = useAction();

  async function submit() {
    if (!form.attemptSubmit()) return;
    // A taken name answers 409 with the server's message.
    const camera = webcamOf(webcam?.id ?? 0, form.values);
    if (await save.run(() => api.saveCamera(camera), 'Die Webcam konnte nicht gespeichert werden.')) onSaved();
  }

  return (
    <ModalDialog title={webcam ? `Webcam ${webcam.name} bearbeiten` : 'Webcam hinzufügen'} onClose={onClose}>
      <Form onSubmit={() => void submit()} label="Webcam">
        <TextField field={form.field('name')} label="Name" hint="Buchstaben, Ziffern, - und _" />
        <TextField field={form.field('pattern')} label="Pattern (Bild-URL)" placeholder="https://…/bild.jpg" />
        <div className="form-row">
          <TextField field={form.field('distance')} label="Distanz (km)" type="number" step="any" hint="1 bis 20" />
          <TextField field={form.field('angle')} label="Blickwinkel (°)" type="number" hint="1 bis 360" />
        </div>
        <div className="form-row">
          <TextField field={form.field('intervalMin')} label="Intervall (Minuten)" type="number" hint="1 bis 60" />
          <SelectField field={form.field('webcamType')} label="Typ" placeholder="Bitte wählen" options={WEBCAM_TYPES} />
        </div>
        <SaveOrCancel action={save} onCancel={onClose} />
      </Form>
    </ModalDialog>
  );
}
