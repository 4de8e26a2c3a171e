// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { render } from '../src/server.tsx';

const textOf = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe("mf-map's server build", () => {
  it('renders the privacy page, its contents linking to its sections', () => {
    // As in the gateway: no browser around.
    expect(typeof window).toBe('undefined');
    const html = render('/datenschutz') ?? '';
    expect(html).toMatch(/^<div class="mf-map">/);
    expect(html).toContain('<h1>Datenschutz</h1>');
    expect(textOf(html)).toContain('Impressum, Haftungsausschluss und Datenschutzerklärung.');
    expect(html).toContain('<a href="#haftungsausschluss">Haftungsausschluss</a>');
    expect(html).toContain('id="haftungsausschluss"');
    expect(html).toContain('href="/referes-list"');
  });

  it('renders prices and references, the partner pages still to come from the browser', () => {
    const html = render('/referes-list') ?? '';
    expect(html).toContain('<h1>Preise und Referenzen</h1>');
    expect(textOf(html)).toContain('Werbung auf einem Kamerabild');
    expect(textOf(html)).toContain('Bildqualität für Besucher und Premium');
    expect(html).toContain('href="/contact"');
    expect(textOf(html)).toContain('Wird geladen …');
  });

  it('leaves the pages it does not render on the server, and those of other remotes, to the browser', () => {
    for (const path of ['/', '/webcams', '/webcam/Rapperswil', '/bestof', '/login', '/nowhere'])
      expect(render(path), path).toBeNull();
  });
});
