import { ApiError } from '@lakecams/session';
import { describe, expect, it } from 'vitest';
import { failureMessage, serverMessageInGerman } from '../src/server-messages.ts';

describe('serverMessageInGerman', () => {
  it('says a message it knows in German', () => {
    expect(serverMessageInGerman('Username or password is incorrect')).toBe('Benutzername oder Passwort ist falsch.');
    expect(serverMessageInGerman('This camera was captured this minute already')).toBe(
      'Diese Kamera wurde in dieser Minute schon aufgenommen.',
    );
  });

  it('keeps the values a message carries', () => {
    expect(serverMessageInGerman('Too many attempts, please wait 42 s')).toBe(
      'Zu viele Versuche. Bitte warten Sie 42 Sekunden.',
    );
    expect(serverMessageInGerman('Unknown camera 99')).toBe('Die Kamera 99 gibt es nicht.');
    expect(serverMessageInGerman('A camera named Ufenau exists already')).toBe(
      'Eine Kamera namens Ufenau gibt es schon.',
    );
    expect(serverMessageInGerman('Role Admin required')).toBe('Dafür braucht es die Rolle Admin.');
  });

  it('says that an unreachable service is unreachable, whichever it is', () => {
    expect(serverMessageInGerman('Service imaging is unavailable, please retry shortly')).toBe(
      serverMessageInGerman('Database unavailable, please retry shortly'),
    );
  });

  it('shows a message it does not know as it came', () => {
    expect(serverMessageInGerman('This is not the token we sent you')).toBe('This is not the token we sent you');
  });
});

describe('failureMessage', () => {
  it("is the server's message in German when it sent one", () => {
    expect(failureMessage(new ApiError(404, '/api/Jobs/retry', 'Unknown camera 7'), 'Fehlgeschlagen.')).toBe(
      'Die Kamera 7 gibt es nicht.',
    );
  });

  it('is the fallback when the server gave no message, or the call never reached it', () => {
    expect(failureMessage(new ApiError(500, '/api/Jobs/state'), 'Fehlgeschlagen.')).toBe('Fehlgeschlagen.');
    expect(failureMessage(new TypeError('Failed to fetch'), 'Fehlgeschlagen.')).toBe('Fehlgeschlagen.');
    expect(failureMessage(undefined, 'Fehlgeschlagen.')).toBe('Fehlgeschlagen.');
  });
});
