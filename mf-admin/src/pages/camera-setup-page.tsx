import { PageFrame } from '@lakecams/ui-kit';

/** Url and camera choice and the layer groups come in a later issue. */
export function CameraSetupPage() {
  return <PageFrame title="Kamera-Einrichtung" />;
}
