import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ageText, momentOf, regionDay } from '../src/time.ts';

/** The event stream the player opens, played by the test. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  closed = false;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  send(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? [])
      listener({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
}

// 2026-11-27 13:00 UTC is 14:00 in Zurich.
const NOW = new Date('2026-11-27T13:00:00Z');
const image = (name: string) => ({ name, webcamId: 7, lat: 47, lng: 8, direction: 0 });
const history = {
  camera: 'Au',
  day: '2026-11-27',
  days: ['2026-11-27', '2026-11-26'],
  images: ['202611271345', '202611271350', '202611271355'].map(image),
  frozenSince: null,
};

describe('the region clock of picture names', () => {
  it('reads names in Zurich time, winter and summer, and says the age as the portal does', () => {
    expect(momentOf('202612011200')?.toISOString()).toBe('2026-12-01T11:00:00.000Z');
    expect(momentOf('202607011200')?.toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(momentOf('2026')).toBeNull();
    expect(regionDay(Date.parse('2026-11-27T23:30:00Z'))).toBe('2026-11-28');
    const taken = new Date('2026-11-27T12:00:00Z');
    const at = (minutes: number) => taken.getTime() + minutes * 60_000;
    expect([0, 3, 59, 60, 150, 1440, 2880].map((m) => ageText(taken, at(m), 'de'))).toEqual([
      'gerade eben',
      'vor 3 Min.',
      'vor 59 Min.',
      'vor 1 Std.',
      'vor 2 Std.',
      'vor 1 Tag',
      'vor 2 Tagen',
    ]);
    expect(ageText(taken, at(3), 'en')).toBe('3 min ago');
  });
});

describe('<seecam-player>', () => {
  let fetches: { url: string; init: RequestInit | undefined }[];
  let booked: boolean;

  beforeAll(async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    await import('../src/player.ts');
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    fetches = [];
    booked = true;
    FakeEventSource.opened = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      fetches.push({ url, init });
      const body = url.includes('/EmbedView/')
        ? {
            camera: 'Au',
            quality: booked ? 'HIGH' : 'POOR',
            booked,
            cameraPage: '/webcam/Au',
            ...(booked ? { pass: 'beacon.1.x' } : {}),
          }
        : structuredClone(history);
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    });
  });
  afterEach(() => {
    document.body.replaceChildren();
    vi.useRealTimers();
  });

  async function mount(attributes: Record<string, string> = {}) {
    const player = document.createElement('seecam-player');
    for (const [name, value] of Object.entries({ camera: 'Au', ...attributes })) player.setAttribute(name, value);
    document.body.append(player);
    const root = player.shadowRoot as ShadowRoot;
    await vi.waitFor(() =>
      expect(root.querySelector('input')?.getAttribute('max') ?? root.querySelector('.t')).toBeTruthy(),
    );
    await vi.waitFor(() => expect(root.querySelector('[role=status]')?.textContent).not.toBe(''));
    return { player, root, picture: root.querySelector('img') as HTMLImageElement };
  }

  it("shows the current picture by the camera's entitlement URL with the page's address, its age and the day", async () => {
    const { root, picture } = await mount();
    expect(picture.getAttribute('src')).toMatch(/\/api\/Image\/Get\/camera\/Au\.jpg$/);
    expect(picture.getAttribute('referrerpolicy')).toBe('no-referrer-when-downgrade');
    expect(root.querySelector('[role=status]')?.textContent).toBe('vor 5 Min.');
    expect(root.querySelector('input')?.getAttribute('max')).toBe('2');
    expect([...root.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['27.11.2026', '26.11.2026']);
    expect(root.querySelector('.t')?.textContent).toBe('13:55');
    // Data without cookies; the beacon with the page's full address, so the booking is found.
    for (const { init } of fetches) expect(init?.credentials).toBe('omit');
    const beacon = fetches.find(({ url }) => url.includes('/api/Image/EmbedView/camera/Au'));
    expect(beacon?.init?.referrerPolicy).toBe('no-referrer-when-downgrade');
    await vi.waitFor(() =>
      expect((root.querySelector('a.chip[hidden]') as HTMLElement | null)?.textContent).toBe('Seecam'),
    );
  });

  it("plays the day's time-lapse with the pass the beacon gave the booked page (a video sends only the origin)", async () => {
    const { root } = await mount();
    await vi.waitFor(() =>
      expect((root.querySelector('a.chip[hidden]') as HTMLElement | null)?.textContent).toBe('Seecam'),
    );
    (root.querySelector('button[aria-pressed]') as HTMLButtonElement).click();
    expect(root.querySelector('video')?.getAttribute('src')).toMatch(
      /\/Timelapse\/camera\/Au\/2026-11-27\.mp4\?pass=beacon\.1\.x$/,
    );
    expect(root.querySelector('button[aria-pressed]')?.textContent).toBe('Bild');
  });

  it('shows the Seecam credit to a page without a booking', async () => {
    booked = false;
    const { root } = await mount();
    await vi.waitFor(() =>
      expect([...root.querySelectorAll('a')].find((a) => a.textContent === 'Seecam')?.hidden).toBe(false),
    );
  });

  it('follows live pictures of its camera in their order, and keeps an earlier moment the visitor chose', async () => {
    const { root, picture } = await mount();
    const stream = FakeEventSource.opened[0] as FakeEventSource;
    stream.send('image', image('202611271400'));
    stream.send('image', { ...image('202611271400'), webcamId: 8 });
    await vi.waitFor(() => expect(picture.getAttribute('src')).toMatch(/\/camera\/Au\/202611271400\.jpg$/));
    const slider = root.querySelector('input') as HTMLInputElement;
    expect([slider.max, slider.value]).toEqual(['3', '3']);
    // A picture of an earlier minute (an upload) joins the day in its place; the newest stays shown.
    stream.send('image', image('202611271352'));
    expect([slider.max, slider.value]).toEqual(['4', '4']);
    expect(picture.getAttribute('src')).toMatch(/202611271400\.jpg$/);
    // The visitor goes back: a new picture joins the slider but does not take the view.
    slider.value = '0';
    slider.dispatchEvent(new Event('input'));
    expect(picture.getAttribute('src')).toMatch(/202611271345\.jpg$/);
    stream.send('image', image('202611271405'));
    expect(picture.getAttribute('src')).toMatch(/202611271345\.jpg$/);
    expect([slider.max, slider.value]).toEqual(['5', '0']);
  });

  it("carries a frame's pass on every picture, clip and beacon, and shares one event stream among players", async () => {
    const { root, picture } = await mount({ pass: 'cGFnZQ.9999999999.sig' });
    await mount();
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(picture.getAttribute('src')).toMatch(/Au\.jpg\?pass=cGFnZQ\.9999999999\.sig$/);
    expect(fetches.find(({ url }) => url.includes('/EmbedView/'))?.url).toMatch(/\?pass=cGFnZQ/);
    (root.querySelector('button[aria-pressed]') as HTMLButtonElement).click();
    expect(root.querySelector('video')?.getAttribute('src')).toMatch(
      /\/api\/Image\/Timelapse\/camera\/Au\/2026-11-27\.mp4\?pass=/,
    );
    expect(picture.hidden).toBe(true);
    document.body.replaceChildren();
    expect(FakeEventSource.opened[0]?.closed).toBe(true);
  });

  it('shows only the picture, its age and the link with controls="none", in English with lang="en"', async () => {
    const player = document.createElement('seecam-player');
    player.setAttribute('camera', 'Au');
    player.setAttribute('controls', 'none');
    player.setAttribute('lang', 'en');
    document.body.append(player);
    const root = player.shadowRoot as ShadowRoot;
    await vi.waitFor(() => expect(root.querySelector('[role=status]')?.textContent).toBe('5 min ago'));
    expect(root.querySelector('input')?.isConnected ?? false).toBe(false);
    expect([...root.querySelectorAll('a')].map((a) => a.textContent)).toContain('Au on Seecam');
  });
});
