import { CSS } from './styles.ts';
import { TEXTS, type Texts } from './texts.ts';
import { ageText, clockOf, dateLabel, type Lang, momentOf, regionDay } from './time.ts';
import { createZoom, type Zoom } from './zoom.ts';

/**
 * `<seecam-player camera="Halbinsel-Au">`: a camera of the portal on a partner's page (docs/decisions.md, "The
 * embedded player's two forms"). Plain DOM in a shadow root, no framework. The pictures are `<img>`s of the
 * portal's entitlement URLs, so the page's `Referer` (or, framed, the frame's pass) decides level and layers
 * exactly as for `/api/Image/Get`, and the page cannot read their pixels; what it reads across origins is the
 * day's picture names, the live events and its own level, all public.
 *
 * Attributes: `camera` (required), `width`/`height` (CSS pixels; else the page's width at 16:9), `size="fill"`
 * (fills its box), `controls="none"` (picture, age and link only), `lang` (`de`, the default, or `en`).
 */

/** The portal this script came from: its pictures, events and pages. */
const PORTAL = new URL('../', import.meta.url).href;
/** Sends the page's full address with the pictures, so several booked pages of one site are told apart. */
const REFERRER_POLICY = 'no-referrer-when-downgrade';
/** A framed player reloads its document (a fresh pass) this long before its pass runs out. */
const PASS_RENEW_MS = 3_600_000;

interface Picture {
  name: string;
  webcamId: number;
}
interface History {
  day: string;
  days: string[];
  images: Picture[];
}
interface Level {
  booked: boolean;
  cameraPage: string;
  /** A booked page's pass: what the time-lapse video carries, as a `<video>` sends only the page's origin. */
  pass?: string;
}

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text = '',
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
};

/**
 * One event stream per page however many players it holds (a browser opens only six connections per host), closed
 * with the last player.
 */
const livePictureListeners = new Set<(image: Picture) => void>();
let liveStream: EventSource | null = null;
function onLivePicture(listener: (image: Picture) => void): () => void {
  if (!liveStream) {
    liveStream = new EventSource(new URL('api/Events/stream', PORTAL).href);
    liveStream.addEventListener('image', (event) => {
      const image = JSON.parse((event as MessageEvent<string>).data) as Picture;
      for (const notify of livePictureListeners) notify(image);
    });
  }
  livePictureListeners.add(listener);
  return () => {
    livePictureListeners.delete(listener);
    if (livePictureListeners.size === 0) {
      liveStream?.close();
      liveStream = null;
    }
  };
}

export class SeecamPlayer extends HTMLElement {
  static observedAttributes = ['camera', 'width', 'height'];

  private root = this.attachShadow({ mode: 'open' });
  private started = false;
  private camera = '';
  private pass: string | null = null;
  /** The beacon's pass for this page, for the clip (a framed player has its own). */
  private clipPass: string | null = null;
  private texts: Texts = TEXTS.de;
  private language: Lang = 'de';
  private history: History | null = null;
  private webcamId: number | null = null;
  /** The shown picture's name; null while the current picture (by the camera's URL) is shown. */
  private shown: string | null = null;
  private newest: string | null = null;
  private follow = true;
  private stopListening: (() => void) | null = null;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private zoom: Zoom | null = null;
  private ui!: {
    frame: HTMLDivElement;
    stage: HTMLDivElement;
    picture: HTMLImageElement;
    clip: HTMLVideoElement;
    age: HTMLSpanElement;
    credit: HTMLAnchorElement;
    days: HTMLSelectElement;
    slider: HTMLInputElement;
    time: HTMLSpanElement;
    timelapse: HTMLButtonElement;
    link: HTMLAnchorElement;
    enlarge: HTMLButtonElement;
  };

  connectedCallback() {
    if (this.started) return;
    this.camera = this.getAttribute('camera') ?? '';
    if (!this.camera) return;
    this.started = true;
    this.language = this.getAttribute('lang') === 'en' ? 'en' : 'de';
    this.texts = TEXTS[this.language];
    this.pass = this.getAttribute('pass');
    this.render();
    this.sized();
    void this.askLevel();
    void this.loadDay();
    this.listen();
    this.ticker = setInterval(() => this.showAge(), 15_000);
  }

  disconnectedCallback() {
    this.stopListening?.();
    this.stopListening = null;
    clearInterval(this.ticker);
    this.zoom?.close();
    this.started = false;
    this.root.replaceChildren();
  }

  attributeChangedCallback(name: string) {
    if (!this.started) return;
    if (name === 'camera') {
      this.disconnectedCallback();
      this.connectedCallback();
    } else this.sized();
  }

  private sized() {
    for (const side of ['width', 'height'] as const) {
      const value = Number(this.getAttribute(side));
      this.style[side] = value > 0 ? `${value}px` : '';
    }
    // A fixed height: the stage takes what the bar leaves.
    this.ui.stage.style.aspectRatio = Number(this.getAttribute('height')) > 0 ? 'auto' : '';
  }

  /** A URL of the portal, with the frame's pass where the level depends on the page. */
  private portalUrl(path: string, withPass = false): string {
    const url = new URL(path, PORTAL);
    if (withPass && this.pass) url.searchParams.set('pass', this.pass);
    return url.href;
  }

  private pictureUrl(name: string | null): string {
    const camera = encodeURIComponent(this.camera);
    return this.portalUrl(`api/Image/Get/camera/${camera}${name ? `/${name}` : ''}.jpg`, true);
  }

  private render() {
    const t = this.texts;
    if ('adoptedStyleSheets' in this.root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      this.root.adoptedStyleSheets = [sheet];
    } else this.root.append(element('style', {}, CSS));
    const controls = this.getAttribute('controls') !== 'none';
    const frame = element('div', { class: 'p', part: 'player' });
    const stage = element('div', { class: 's' });
    const picture = element('img', {
      alt: t.picture(this.camera),
      referrerpolicy: REFERRER_POLICY,
      decoding: 'async',
      fetchpriority: 'high',
    });
    picture.src = this.pictureUrl(null);
    const clip = element('video', {
      'aria-label': t.timelapse,
      muted: '',
      playsinline: '',
      controls: '',
      loop: '',
      preload: 'none',
      hidden: '',
    });
    clip.muted = true;
    const age = element('span', { class: 'chip', role: 'status' });
    const credit = element('a', { class: 'chip', target: '_blank', rel: 'noopener', hidden: '' }, t.credit);
    const enlarge = element('button', { type: 'button', 'aria-label': t.zoom, title: t.zoom }, '⤢');
    const topLeft = element('div', { class: 'o tl' });
    topLeft.append(age);
    const topRight = element('div', { class: 'o tr' });
    topRight.append(enlarge);
    const bottomRight = element('div', { class: 'o br' });
    bottomRight.append(credit);
    stage.append(picture, clip, topLeft, topRight, bottomRight);
    const bar = element('div', { class: 'b' });
    const days = element('select', { 'aria-label': t.day });
    const slider = element('input', { type: 'range', min: '0', max: '0', value: '0', 'aria-label': t.moment });
    const time = element('span', { class: 't' });
    const timelapse = element('button', { type: 'button', 'aria-pressed': 'false' }, t.timelapse);
    const link = element(
      'a',
      { target: '_blank', rel: 'noopener', href: this.portalUrl(`webcam/${encodeURIComponent(this.camera)}`) },
      t.onPortal(this.camera),
    );
    bar.append(days, slider, time, timelapse, link);
    frame.append(stage);
    if (controls) frame.append(bar);
    else {
      link.classList.add('chip');
      bottomRight.prepend(link);
    }
    this.root.append(frame);
    this.ui = { frame, stage, picture, clip, age, credit, days, slider, time, timelapse, link, enlarge };
    credit.href = link.href;

    slider.addEventListener('input', () => this.showIndex(Number(slider.value)));
    days.addEventListener('change', () => void this.loadDay(days.value));
    timelapse.addEventListener('click', () => this.toggleTimelapse());
    enlarge.addEventListener('click', () => {
      this.zoom ??= createZoom(frame, stage, picture, (open) => {
        enlarge.textContent = open ? '✕' : '⤢';
        enlarge.setAttribute('aria-label', open ? t.close : t.zoom);
        if (open) {
          frame.tabIndex = -1;
          frame.focus();
        }
      });
      if (this.zoom.isOpen) this.zoom.close();
      else this.zoom.open();
    });
  }

  /** The page's own level (the beacon the portal counts a booked page's views by): credit for the public one. */
  private async askLevel() {
    try {
      const answer = await fetch(
        this.portalUrl(`api/Image/EmbedView/camera/${encodeURIComponent(this.camera)}`, true),
        {
          credentials: 'omit',
          referrerPolicy: REFERRER_POLICY,
        },
      );
      if (!answer.ok) return;
      const level = (await answer.json()) as Level;
      this.ui.credit.hidden = level.booked;
      this.clipPass = level.pass ?? null;
      this.ui.link.href = this.ui.credit.href = this.portalUrl(level.cameraPage.replace(/^\//, ''));
    } catch {
      this.ui.credit.hidden = false;
    }
  }

  private async fetchHistory(day?: string): Promise<History | null> {
    const query = new URLSearchParams({ name: this.camera });
    if (day) query.set('day', day);
    try {
      const answer = await fetch(this.portalUrl(`api/Webcam/GetImageHistory?${query}`), { credentials: 'omit' });
      return answer.ok ? ((await answer.json()) as History) : null;
    } catch {
      return null;
    }
  }

  /** A day's pictures in the slider; without a day today, or the latest day with pictures. */
  private async loadDay(day?: string) {
    let history = await this.fetchHistory(day);
    if (history && !day && history.images.length === 0 && history.days[0] && history.days[0] !== history.day)
      history = await this.fetchHistory(history.days[0]);
    if (!history) return;
    this.history = history;
    this.webcamId ??= history.images[0]?.webcamId ?? null;
    const { days, slider } = this.ui;
    days.replaceChildren(...history.days.map((d) => element('option', { value: d }, dateLabel(d))));
    days.value = history.day;
    slider.max = String(Math.max(0, history.images.length - 1));
    const last = history.images.at(-1)?.name ?? null;
    if (history.day === regionDay() || !day) this.newest = last;
    if (day) this.showIndex(history.images.length - 1);
    else {
      slider.value = slider.max;
      this.shown = last;
      this.showTime();
    }
    if (!this.ui.clip.hidden) this.playTimelapse();
  }

  private showIndex(index: number) {
    const image = this.history?.images[index];
    if (!image) return;
    this.follow = image.name === this.newest;
    this.show(image.name);
  }

  private show(name: string) {
    if (this.shown !== name || !this.ui.picture.src.includes(`/${name}.jpg`))
      this.ui.picture.src = this.pictureUrl(name);
    this.shown = name;
    this.showTime();
  }

  private showTime() {
    const name = this.shown;
    this.ui.time.textContent = name ? clockOf(name) : '';
    this.showAge();
  }

  private showAge() {
    const taken = this.shown ? momentOf(this.shown) : null;
    this.ui.age.textContent = taken
      ? ageText(taken, Date.now(), this.language)
      : this.history
        ? this.texts.noPictures
        : '';
  }

  /** New pictures as the portal's pages get them: the newest is shown at once while the visitor follows along. */
  private listen() {
    this.stopListening = onLivePicture((image) => {
      if (this.webcamId === null || image.webcamId !== this.webcamId) return;
      if (this.pass && this.passEndsSoon()) return location.reload();
      // Pictures may arrive out of order (an upload of an earlier minute): each joins the day in its place.
      const newest = !this.newest || image.name > this.newest;
      if (newest) this.newest = image.name;
      const history = this.history;
      const day = `${image.name.slice(0, 4)}-${image.name.slice(4, 6)}-${image.name.slice(6, 8)}`;
      if (history && history.day === day) {
        const at = history.images.findIndex((known) => known.name >= image.name);
        if (at === -1) history.images.push(image);
        else if (history.images[at]?.name !== image.name) history.images.splice(at, 0, image);
        this.ui.slider.max = String(history.images.length - 1);
        const shownAt = history.images.findIndex((known) => known.name === this.shown);
        if (shownAt >= 0) this.ui.slider.value = String(shownAt);
      }
      if (history && !history.days.includes(day)) history.days.unshift(day);
      if (this.follow && newest) {
        if (history?.day === day) this.ui.slider.value = this.ui.slider.max;
        this.show(image.name);
      }
    });
  }

  private passEndsSoon(): boolean {
    const expires = Number(this.pass?.split('.')[1]) * 1000;
    return Number.isFinite(expires) && expires - Date.now() < PASS_RENEW_MS;
  }

  private toggleTimelapse() {
    const { clip, picture, timelapse } = this.ui;
    const playing = clip.hidden;
    timelapse.setAttribute('aria-pressed', String(playing));
    timelapse.textContent = playing ? this.texts.picture_back : this.texts.timelapse;
    if (playing) this.playTimelapse();
    else {
      clip.pause();
      clip.hidden = true;
      clip.removeAttribute('src');
      clip.load();
      picture.hidden = false;
    }
  }

  private playTimelapse() {
    const { clip, picture } = this.ui;
    const day = this.history?.day ?? regionDay();
    const url = new URL(`api/Image/Timelapse/camera/${encodeURIComponent(this.camera)}/${day}.mp4`, PORTAL);
    const pass = this.pass ?? this.clipPass;
    if (pass) url.searchParams.set('pass', pass);
    clip.src = url.href;
    clip.hidden = false;
    picture.hidden = true;
    // Muted, so browsers let it start; one that refuses still shows its controls.
    void Promise.resolve()
      .then(() => clip.play())
      .catch(() => undefined);
  }
}

if (!customElements.get('seecam-player')) customElements.define('seecam-player', SeecamPlayer);
