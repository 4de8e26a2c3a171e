import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfferCards } from '../src/home/offer-cards.tsx';
import { partnerPages } from '../src/pricing/pages-using-service.ts';
import { formatChf, PRICES } from '../src/pricing/prices.ts';
import { renderAt, stubApi } from './fixtures.tsx';

/** de-CH puts a no-break space after CHF; its thousands apostrophe differs between ICU versions, so amounts stay below 1000. */
const chf = (text: string) => text.replace(' ', '\u00a0');

describe('formatChf', () => {
  it('formats amounts as de-CH Swiss francs', () => {
    expect(formatChf(25)).toBe(chf('CHF 25.00'));
    expect(formatChf(120)).toBe(chf('CHF 120.00'));
    expect(formatChf(0)).toBe(chf('CHF 0.00'));
    expect(formatChf(9.5)).toBe(chf('CHF 9.50'));
  });

  it('holds the published prices', () => {
    expect(PRICES.advertisingPerCameraMonth).toBe(10);
    expect(PRICES.maxAdvertisementsPerCamera).toBe(60);
    expect(PRICES.ownSitePerCameraMonth).toEqual({ FULL: 25, HIGH: 20, MEDIUM: 15, LOW: 10 });
    expect(PRICES.advertisingDesignPerHour).toBe(120);
  });
});

describe('offer cards', () => {
  afterEach(cleanup);

  it('offers a donation, Free with registration and Service One with contact and its users', () => {
    render(
      <MemoryRouter>
        <OfferCards />
      </MemoryRouter>,
    );
    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Spende',
      'Free',
      'Service One',
    ]);
    const [donation, free, serviceOne] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(donation.textContent).toContain('Betrag frei wählbar');
    expect(within(free).getByRole('link', { name: 'Registrieren' }).getAttribute('href')).toBe('/register');
    expect(free.textContent).toContain('mindestens Tiefe Qualität (800 px) bei jeder Kamera');
    expect(within(serviceOne).getByRole('link', { name: 'Kontakt' }).getAttribute('href')).toBe('/contact');
    expect(within(serviceOne).getByRole('link', { name: 'Wer nutzt den Service?' }).getAttribute('href')).toBe(
      '/referes-list',
    );
    expect(serviceOne.textContent).toContain(chf('CHF 10.00'));
    expect(serviceOne.textContent).toContain(chf('CHF 25.00'));
    expect(serviceOne.textContent).toContain(chf('CHF 120.00'));
  });
});

describe('the referes-list page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the prices and links to the pages using the service, http(s) only', async () => {
    stubApi({
      '/api/Referer/GetPagesUses/PageUser': () =>
        Response.json(['https://www.seeblick.example/webcams', 'javascript:alert(1)', 'http://hafen.example/', 42]),
    });
    await renderAt('/referes-list');
    const table = screen.getByRole('table');
    expect(within(table).getByRole('row', { name: /Volle Qualität/ }).textContent).toContain(chf('CHF 25.00'));
    expect(within(table).getByRole('row', { name: /Hohe Qualität/ }).textContent).toContain(chf('CHF 20.00'));
    expect(within(table).getByRole('row', { name: /Mittlere Qualität/ }).textContent).toContain(chf('CHF 15.00'));
    expect(within(table).getByRole('row', { name: /Tiefe Qualität/ }).textContent).toContain(chf('CHF 10.00'));
    expect(screen.getByText(/Höchstens 60 Werbungen/)).toBeTruthy();

    const section = screen.getByRole('region', { name: 'Seiten, die unseren Service nutzen' });
    await within(section).findAllByRole('link');
    expect(
      within(section)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['hafen.example', 'http://hafen.example/'],
      ['www.seeblick.example/webcams', 'https://www.seeblick.example/webcams'],
    ]);
  });

  it('says what a visitor, a registered user and Premium get, and how Premium is had, at #premium', async () => {
    stubApi({ '/api/Referer/GetPagesUses/PageUser': () => Response.json([]) });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    await renderAt('/referes-list#premium');
    const section = screen.getByRole('region', { name: 'Bildqualität für Besucher und Premium' });
    expect(section.id).toBe('premium');
    expect(scrolled).toHaveBeenCalled();
    expect(section.textContent).toContain('Ohne Konto: Einfache Qualität (480 px breit)');
    expect(section.textContent).toContain('Mit kostenlosem Konto: mindestens Tiefe Qualität (800 px)');
    expect(section.textContent).toContain('Premium: mindestens Mittlere Qualität (1280 px)');
    expect(section.textContent).toContain('Premium schalten Sie mit einem Funktionscode frei');
    expect(within(section).getByRole('link', { name: 'Mein Profil' }).getAttribute('href')).toBe('/user');
    expect(within(section).getByRole('link', { name: 'Kontakt' }).getAttribute('href')).toBe('/contact');
  });

  it('says so kindly when no page uses the service yet', async () => {
    stubApi({ '/api/Referer/GetPagesUses/PageUser': () => Response.json([]) });
    await renderAt('/referes-list');
    expect(await screen.findByText(/Noch zeigt keine Partnerseite/)).toBeTruthy();
  });

  it('keeps only well-formed web addresses, once each', () => {
    expect(partnerPages(['https://a.example/x', 'https://a.example/x', 'ftp://b.example', 'nonsense'])).toEqual([
      { href: 'https://a.example/x', label: 'a.example/x' },
    ]);
  });
});
