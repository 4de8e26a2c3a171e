import { PageFrame } from '@lakecams/ui-kit';

/** The camera table and its dialogs (spec §2 "Camera administration") come in a later issue. */
export function CameraAdministrationPage() {
  return <PageFrame title="Webcams bearbeiten" />;
}
