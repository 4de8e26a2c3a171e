// @vitest-environment node
import { bestOfDayCall, PAGE_DATA_IDS, PAGES_USING_SERVICE_PATH } from '@lakecams/contracts';
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

  it('renders the partner pages it is given, as links', () => {
    const data = { [PAGE_DATA_IDS.answers]: { [PAGES_USING_SERVICE_PATH]: ['https://hotel-au.example/webcam'] } };
    const html = render('/referes-list', data) ?? '';
    expect(html).toContain('href="https://hotel-au.example/webcam"');
    expect(textOf(html)).not.toContain('Wird geladen …');
  });

  const CAMERAS = [
    {
      webcam: {
        id: 1,
        name: 'Halbinsel-Au',
        pattern: '',
        distance: 3,
        angle: 60,
        intervalMin: 10,
        webcamType: 'STATIC',
      },
      images: [{ lat: 47.25, lng: 8.64, direction: 90, name: '202611271400', webcamId: 1 }],
    },
  ];

  it('renders all cameras with their pictures, names, links and ages at the moment the page was made', () => {
    const renderedAt = Date.parse('2026-11-27T13:03:00Z');
    const html = render('/webcams', { [PAGE_DATA_IDS.cameraList]: CAMERAS, [PAGE_DATA_IDS.renderedAt]: renderedAt });
    expect(html).toContain('<h1>Alle Webcams</h1>');
    expect(html).toContain('href="/webcam/Halbinsel-Au"');
    expect(html).toContain('src="/api/Image/Get/camera/Halbinsel-Au/202611271400.jpg"');
    expect(textOf(html ?? '')).toContain('27.11.2026, 14:00 Uhr · vor 3 Min.');
  });

  it("renders home with its tabs, the list when asked for, and the day's best pictures", () => {
    const list = render('/?ansicht=liste', { [PAGE_DATA_IDS.cameraList]: CAMERAS }) ?? '';
    expect(list).toContain('<h1>Webcams am Zürichsee</h1>');
    expect(list).toContain('href="/webcam/Halbinsel-Au"');
    const best = {
      day: '2026-11-26',
      today: '2026-11-27',
      pictures: [{ camera: 'Halbinsel-Au', webcamId: 1, name: '202611261200', score: 80, chosenBy: 'score' }],
    };
    const html = render('/bestof?tag=2026-11-26', { [PAGE_DATA_IDS.answers]: { [bestOfDayCall('2026-11-26')]: best } });
    expect(html).toContain('src="/api/Image/Get/camera/Halbinsel-Au/202611261200.jpg"');
    expect(textOf(html ?? '')).toContain('Donnerstag, 26. November 2026');
  });

  it('paints the map from the page: the tiles around the lake, a cone linking each camera, its marker', () => {
    const pageConfig = { mapTiles: { url: 'https://tiles.test/{z}/{y}/{x}.jpg', attribution: 'Kacheln &copy; Test' } };
    const html = render('/', { [PAGE_DATA_IDS.cameraList]: CAMERAS, [PAGE_DATA_IDS.pageConfig]: pageConfig }) ?? '';
    // Zoom 13 around 47.229 / 8.729: tile column 4294, row 2873 holds the centre.
    expect(html).toContain('src="https://tiles.test/13/2873/4294.jpg"');
    expect(html.match(/class="static-map__tile"/g)?.length).toBeGreaterThanOrEqual(12);
    expect(html).toContain('<a href="/webcam/Halbinsel-Au" aria-label="Webcam Halbinsel-Au"><polygon');
    expect(html.match(/class="camera-marker static-map__marker"/g)).toHaveLength(1);
    expect(html).toContain('Kacheln &copy; Test');
  });

  it('leaves the pages it does not render on the server, and those of other remotes, to the browser', () => {
    for (const path of ['/webcam/Rapperswil', '/compare', '/login', '/nowhere']) expect(render(path), path).toBeNull();
  });
});
