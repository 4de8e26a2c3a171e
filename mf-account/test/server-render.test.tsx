// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { render } from '../src/server.tsx';

/** The text a reader gets from markup: tags out, React's text separators and entities as a browser reads them. */
const textOf = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe("mf-account's server build", () => {
  it('renders the login page as an anonymous visitor sees it', () => {
    // As in the gateway: no browser around.
    expect(typeof window).toBe('undefined');
    const html = render('/login?returnUrl=/user') ?? '';
    expect(html).toContain('<h1>Anmelden</h1>');
    expect(textOf(html)).toContain('Mit Ihrem Konto anmelden');
    expect(textOf(html)).toContain('Passwort vergessen?');
    expect(html).toMatch(/<form[^>]* aria-label="Anmelden"/);
    expect(html).toContain('href="/register"');
    // The form cannot be sent before the page runs (an empty form is invalid).
    expect(html).toMatch(/<button type="submit"[^>]* disabled=""/);
  });

  it('renders the registration page', () => {
    const html = render('/register') ?? '';
    expect(html).toContain('<h1>Registrieren</h1>');
    expect(textOf(html)).toContain('Mit einem Konto sehen Sie ausgewählte Kameras in besserer Qualität.');
    expect(textOf(html)).toContain('Benutzername');
    expect(html).toContain('href="/login"');
  });

  it('renders the contact page with empty fields', () => {
    const html = render('/contact') ?? '';
    expect(html).toContain('<h1>Kontakt</h1>');
    expect(textOf(html)).toContain('Fragen zur Webseite, ein Vorschlag für einen neuen Kamerastandort');
    expect(textOf(html)).toContain('Bitte wählen …');
    expect(html).not.toMatch(/<input[^>]* value="[^"]+"/);
  });

  it('leaves the pages it does not render on the server, and those of other remotes, to the browser', () => {
    for (const path of ['/user', '/resetPassword', '/confirmRegistration', '/datenschutz', '/', '/nowhere'])
      expect(render(path), path).toBeNull();
  });
});
