import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CameraMapProps } from '../src/map/camera-map.tsx';
import { ITEMS, renderAt, stubApi } from './fixtures.tsx';

// Leaflet needs a real browser (the e2e test covers it); here the lazy chunk is a stand-in.
vi.mock('../src/map/camera-map.tsx', () => ({
  default: ({ cameras, tiles }: CameraMapProps) => (
    <p data-testid="camera-map">
      {cameras.length} Kameras auf {tiles.url}
    </p>
  ),
}));

const TILES = { mapTiles: { url: 'http://tiles.test/{z}/{x}/{y}.png', attribution: 'Testkacheln' } };

function stubPortal() {
  return stubApi({
    '/api/Webcam/GetImages': () => Response.json(ITEMS),
    '/config.json': () => Response.json(TILES),
  });
}

describe('the home page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('has map and list tabs and a link to all cameras', async () => {
    stubPortal();
    await renderAt('/');
    const tablist = await screen.findByRole('tablist', { name: 'Ansicht der Webcams' });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('aria-selected')])).toEqual([
      ['Karte', 'true'],
      ['Liste', 'false'],
    ]);
    expect(screen.getByRole('link', { name: 'Alle Webcams' }).getAttribute('href')).toBe('/webcams');
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(tabs[0]?.id);
    expect(tabs[0]?.getAttribute('aria-controls')).toBe(panel.id);
  });

  it('shows the map with the listed cameras and the configured tiles', async () => {
    stubPortal();
    await renderAt('/');
    expect((await screen.findByTestId('camera-map')).textContent).toBe(
      '3 Kameras auf http://tiles.test/{z}/{x}/{y}.png',
    );
  });

  it('shows the cameras the gateway wrote into the page before any answer, and the answer behind them', async () => {
    const data = document.createElement('script');
    data.type = 'application/json';
    data.id = 'camera-list';
    data.textContent = JSON.stringify(ITEMS);
    document.head.append(data);
    // The list's answer never comes: what is shown is the page's.
    stubApi({ '/config.json': () => Response.json(TILES) });
    await renderAt('/?ansicht=liste');
    const panel = screen.getByRole('tabpanel', { name: 'Liste' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(3);
    expect(document.getElementById('camera-list')).toBeNull();
    cleanup();
    // The next time the page is shown in this visit it waits for the answer (here: one that never comes).
    const asked = stubApi({ '/config.json': () => Response.json(TILES) });
    await renderAt('/?ansicht=liste');
    expect(within(screen.getByRole('tabpanel', { name: 'Liste' })).queryAllByRole('listitem')).toHaveLength(0);
    expect(asked.mock.calls.some(([input]) => String(input).includes('/api/Webcam/GetImages'))).toBe(true);
  });

  it('switches to the list with a click or the arrow keys', async () => {
    stubPortal();
    await renderAt('/');
    const [map, list] = within(await screen.findByRole('tablist')).getAllByRole('tab') as [HTMLElement, HTMLElement];
    fireEvent.click(list);
    expect(list.getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByTestId('camera-map')).toBeNull();
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    expect(map.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(map);
    expect(list.tabIndex).toBe(-1);
  });

  it('lists each camera with an arrow turned to its direction, its name and a link', async () => {
    stubPortal();
    await renderAt('/?ansicht=liste');
    const panel = await screen.findByRole('tabpanel', { name: 'Liste' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const rapperswil = items[0] as HTMLElement;
    expect(within(rapperswil).getByRole('link', { name: 'Rapperswil-Seedamm' }).getAttribute('href')).toBe(
      '/webcam/Rapperswil-Seedamm',
    );
    expect((rapperswil.querySelector('.direction-arrow') as SVGElement).style.transform).toBe('rotate(250deg)');
    expect(rapperswil.textContent).toContain('Westsüdwest (250°)');
    expect(((items[1] as HTMLElement).querySelector('.direction-arrow') as SVGElement).style.transform).toBe(
      'rotate(30deg)',
    );
    // Without a position there is no direction to show.
    expect(items[2]?.textContent).toContain('Ohne Standort');
  });

  it('shows the offer cards', async () => {
    stubPortal();
    await renderAt('/');
    const offers = screen.getByRole('region', { name: 'Angebote' });
    expect(
      within(offers)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Spende', 'Free', 'Service One']);
  });
});
