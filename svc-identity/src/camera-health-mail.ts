import type { CameraHealthChanged, PayloadOf } from '@lakecams/contracts/messages';
import type { Mail } from './messaging.ts';

const zurichTime = new Intl.DateTimeFormat('de-CH', {
  timeZone: 'Europe/Zurich',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const REASONS = { frozen: 'Bild eingefroren', silent: 'keine Lieferung' } as const;

/** The operator's mail about a camera that went offline or delivers again. */
export function cameraHealthMail(change: PayloadOf<typeof CameraHealthChanged>, to: string): Mail {
  const at = `${zurichTime.format(new Date(change.since))} Uhr`;
  if (change.state === 'back')
    return {
      to,
      subject: `Kamera ${change.camera} liefert wieder Bilder`,
      text: `Kamera ${change.camera} liefert wieder Bilder (seit ${at}).\n`,
    };
  const reason = change.reason ? ` (${REASONS[change.reason]})` : '';
  return {
    to,
    subject: `Kamera ${change.camera} ist offline`,
    text: `Kamera ${change.camera} ist offline seit ${at}${reason}.\n`,
  };
}
