import { ApiError } from '@lakecams/session';

/**
 * The services answer in English (their API, logs and tests keep it); the pages say the same in German.
 * The validation messages the product prescribes in English (e.g. "This is not the token we sent you") are shown as
 * they are (docs/product.md §12.4).
 */
const EXACT: Record<string, string> = {
  'This username is already taken': 'Dieser Benutzername ist schon vergeben.',
  'This email address is already registered': 'Diese E-Mail-Adresse ist schon registriert.',
  'Username or password is incorrect': 'Benutzername oder Passwort ist falsch.',
  'Please confirm your email address first (see the mail we sent you)':
    'Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse (siehe die E-Mail, die wir Ihnen geschickt haben).',
  'The code is invalid or has expired': 'Der Code ist ungültig oder abgelaufen.',
  'This code is not valid': 'Dieser Code ist nicht gültig.',
  'Invalid refresh token': 'Ihre Anmeldung ist abgelaufen. Bitte melden Sie sich neu an.',
  'Refresh token was already used; please log in again': 'Ihre Anmeldung ist abgelaufen. Bitte melden Sie sich neu an.',
  'No refresh token': 'Bitte melden Sie sich an.',
  'Missing or invalid anti-forgery token': 'Die Sitzung ist abgelaufen. Bitte laden Sie die Seite neu.',
  'Database unavailable, please retry shortly':
    'Der Dienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
  'No such user': 'Diesen Benutzer gibt es nicht.',
  'User not found': 'Diesen Benutzer gibt es nicht.',
  'Only administrators may impersonate': 'Nur Administratoren können andere Benutzer vertreten.',
  'The booking must not end before it starts': 'Die Buchung darf nicht vor ihrem Beginn enden.',
  'A new layer needs an image': 'Eine neue Ebene braucht ein Bild.',
  'This camera was captured this minute already': 'Diese Kamera wurde in dieser Minute schon aufgenommen.',
  'A capture of this minute is running, please retry shortly':
    'Eine Aufnahme dieser Minute läuft gerade. Bitte versuchen Sie es gleich noch einmal.',
  'You can preview only your own pages': 'Sie können nur Ihre eigenen Seiten ansehen.',
  'Code assignment not found': 'Diese Code-Zuweisung gibt es nicht.',
  'Configuration not found': 'Diese Konfiguration gibt es nicht.',
};

const PATTERNS: [RegExp, (...groups: string[]) => string][] = [
  [/^Too many attempts, please wait (\d+) s$/, (s) => `Zu viele Versuche. Bitte warten Sie ${s} Sekunden.`],
  [
    /^Service \S+ is unavailable, please retry shortly$/,
    () => EXACT['Database unavailable, please retry shortly'] ?? '',
  ],
  [/^A camera named (.+) exists already$/, (name) => `Eine Kamera namens ${name} gibt es schon.`],
  [/^Unknown camera (.+)$/, (name) => `Die Kamera ${name} gibt es nicht.`],
  [/^No camera with id (\d+)$/, (id) => `Die Kamera ${id} gibt es nicht.`],
  [/^No user with the email (.+)$/, (email) => `Es gibt keinen Benutzer mit der E-Mail-Adresse ${email}.`],
  [/^(.+) has (.+) already$/, (email, url) => `${email} hat ${url} schon.`],
  [/^A camera carries at most (\d+) advertisements$/, (n) => `Eine Kamera trägt höchstens ${n} Werbungen.`],
  [/^Role (\S+) required$/, (role) => `Dafür braucht es die Rolle ${role}.`],
];

/** The German text for a message a service sent; a message we do not know is shown as it came. */
export function serverMessageInGerman(message: string): string {
  const exact = EXACT[message];
  if (exact) return exact;
  for (const [pattern, german] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return german(...match.slice(1));
  }
  return message;
}

/** The server's message for the user in German, or `fallback` when it gave none (or the call never reached it). */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return serverMessageInGerman(error.serverMessage);
  return fallback;
}
