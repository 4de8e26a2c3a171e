import { formatZurichDateTime, OFFLINE_REASON_LABELS } from '@lakecams/contracts';
import type { CameraHealthChanged, PayloadOf } from '@lakecams/contracts/messages';
import type { Mail } from './messaging.ts';

const REASONS: Readonly<Record<string, string>> = OFFLINE_REASON_LABELS;

/** The operator's mail about a camera that went offline or delivers again. */
export function cameraHealthMail(change: PayloadOf<typeof CameraHealthChanged>, to: string): Mail {
  const at = `${formatZurichDateTime(new Date(change.since))} Uhr`;
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
