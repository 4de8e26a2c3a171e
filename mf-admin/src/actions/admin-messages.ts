import { MAX_PICTURE_SIZE, PICTURE_TOO_LARGE_MESSAGE } from '@lakecams/contracts';
import { ApiError } from '@lakecams/session';
import { failureMessage } from '@lakecams/ui-kit';

/**
 * Messages only the admin's dialogs meet (picture and layer uploads), in German; the services keep them English.
 * svc-imaging and svc-referer decode every upload in full, so their answer, not a look at the file's name or
 * type in the browser, says whether it is a picture.
 */
const ADMIN_MESSAGES: Record<string, string> = {
  'The file is not an image': 'Die Datei ist kein Bild.',
  [PICTURE_TOO_LARGE_MESSAGE]: `Das Bild ist zu gross: höchstens ${MAX_PICTURE_SIZE.width} × ${MAX_PICTURE_SIZE.height} Pixel.`,
  // @fastify/multipart's answer to a file over the route's size limit.
  'request file too large': 'Die Datei ist zu gross.',
};

/** Why an admin action failed, in German where we know the server's message; `fallback` when it gave none. */
export function adminFailureMessage(error: unknown, fallback: string): string {
  const german = error instanceof ApiError && error.serverMessage ? ADMIN_MESSAGES[error.serverMessage] : undefined;
  return german ?? failureMessage(error, fallback);
}
