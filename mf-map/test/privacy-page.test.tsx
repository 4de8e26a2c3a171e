import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAt } from './fixtures.tsx';

/** The sections of the legal notice, as German headings. */
const SECTIONS = [
  'Kontaktadresse',
  'Vertretungsberechtigte Personen',
  'Handelsregistereintrag',
  'Haftungsausschluss',
  'Haftung für Links',
  'Urheberrechte',
  'Datenschutz',
  'Datenschutzerklärung für die Nutzung von Web-Analytics',
  'Datenschutzerklärung für die Nutzung der Kartenbibliothek (Leaflet)',
  'Quelle',
];

describe('the privacy page', () => {
  afterEach(cleanup);

  it('has every section of the legal notice, in order, each reachable from the contents', async () => {
    await renderAt('/datenschutz');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(SECTIONS);
    const contents = screen.getByRole('navigation', { name: 'Inhalt' });
    expect([...contents.querySelectorAll('a')].map((a) => a.textContent)).toEqual(SECTIONS);
    for (const link of contents.querySelectorAll('a')) {
      expect(document.getElementById(link.getAttribute('href')?.slice(1) ?? '')).not.toBeNull();
    }
  });

  it('states the services it uses, what the logs keep and the date of the notice', async () => {
    await renderAt('/datenschutz');
    const text = document.body.textContent ?? '';
    expect(text).toContain('Web-Analysedienst');
    expect(text).toContain('Kartenbibliothek Leaflet');
    expect(text).toContain(
      'Bei der Nutzung der Karte werden keine personenbezogenen Daten an einen Server übermittelt',
    );
    expect(text).toMatch(/IP-Adresse, Datum, Uhrzeit, Browser-Anfrage und .*Betriebssystem .*Browser/);
    expect(text).toContain('April 2018');
  });
});
