import {
  type CameraListItem,
  cameraKeywords,
  cameraPath,
  isValidCameraName,
  matchPageRoute,
  pageTitle,
  QUALITY_WIDTHS,
  SITE_DESCRIPTION,
  SITE_NAME,
} from '@lakecams/contracts';

/** What a page says about itself to search engines and share previews, which run no JavaScript. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URL of the page. */
  url: string;
  /** Absolute URL of its picture, how wide it is, with a text for those who cannot see it. */
  image?: { url: string; alt: string; width: number };
  /** The page's own `<title>` and keywords, where they differ from the site's (a camera page). */
  own?: { keywords: string };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** The head tags of a page: description, Open Graph and Twitter card, every value escaped. */
export function renderPageMeta(meta: PageMeta): string {
  const tag = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  return [
    tag('name', 'description', meta.description),
    ...(meta.own ? [tag('name', 'keywords', meta.own.keywords)] : []),
    tag('property', 'og:site_name', SITE_NAME),
    tag('property', 'og:type', 'website'),
    tag('property', 'og:locale', 'de_CH'),
    tag('property', 'og:title', meta.title),
    tag('property', 'og:description', meta.description),
    tag('property', 'og:url', meta.url),
    ...(meta.image
      ? [
          tag('property', 'og:image', meta.image.url),
          tag('property', 'og:image:width', String(meta.image.width)),
          tag('property', 'og:image:alt', meta.image.alt),
        ]
      : []),
    // The picture everybody gets is small (POOR): a large card would show it blown up.
    tag('name', 'twitter:card', 'summary'),
    tag('name', 'twitter:title', meta.title),
    tag('name', 'twitter:description', meta.description),
    ...(meta.image ? [tag('name', 'twitter:image', meta.image.url)] : []),
  ].join('');
}

const DESCRIPTION_TAG = /<meta\s+name="description"[^>]*>/i;

/**
 * The shell's index.html with the page's meta tags in place of its generic description, and a camera page's own
 * title: crawlers read it from the HTML (the shell sets the same one as the page renders).
 */
export function withPageMeta(html: string, meta: PageMeta): string {
  const tags = renderPageMeta(meta);
  const described = DESCRIPTION_TAG.test(html)
    ? html.replace(DESCRIPTION_TAG, () => tags)
    : html.replace(/<\/head>/i, () => `${tags}</head>`);
  return meta.title !== SITE_NAME
    ? described.replace(/<title>[^<]*<\/title>/i, () => `<title>${escapeHtml(meta.title)}</title>`)
    : described;
}

/** `/webcam/Richterswil` → `Richterswil`; null for other pages and for names no camera can have. */
export function cameraOfPage(path: string): string | null {
  const match = /^\/webcam\/([^/]+)\/?$/.exec(path);
  if (!match) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[1] as string);
  } catch {
    return null;
  }
  return isValidCameraName(name) ? name : null;
}

/** `202611251310` → `25.11.2026, 13:10` (image names are already Zurich time). */
const momentText = (imageName: string) =>
  `${imageName.slice(6, 8)}.${imageName.slice(4, 6)}.${imageName.slice(0, 4)}, ${imageName.slice(8, 10)}:${imageName.slice(10, 12)}`;

/** A page's own meta tags; its title as the shell sets it (PAGE_ROUTES), so it is in the HTML from the start. */
export function sitePageMeta(origin: string, path: string): PageMeta {
  const match = matchPageRoute(path);
  const title = match ? pageTitle(match.route, match.params) : null;
  return {
    title: title ? `${SITE_NAME} – ${title}` : SITE_NAME,
    description: SITE_DESCRIPTION,
    url: `${origin}${path === '/' ? '/' : path}`,
  };
}

/**
 * A camera page: its name, when its current picture was taken and how often a new one comes, and that
 * picture at the quality everybody gets (the crawler has no account and no partner page; docs/product.md §3.10).
 */
export function cameraPageMeta(origin: string, item: CameraListItem): PageMeta {
  const { name, intervalMin } = item.webcam;
  const latest = latestOf(item);
  const every = intervalMin === 1 ? 'jede Minute' : `alle ${intervalMin} Minuten`;
  const description = latest
    ? `Webcam ${name} am Zürichsee: das aktuelle Bild vom ${momentText(latest)} Uhr, ${every} ein neues.`
    : `Webcam ${name} am Zürichsee, ${every} ein neues Bild.`;
  const path = cameraPath(name);
  return {
    title: `${SITE_NAME} – ${name}`,
    description,
    url: `${origin}${path}`,
    own: { keywords: cameraKeywords(name) },
    ...(latest
      ? {
          image: {
            url: `${origin}/api/Image/Get/camera/${encodeURIComponent(name)}/${latest}.jpg`,
            alt: `Bild der Webcam ${name} vom ${momentText(latest)} Uhr`,
            width: QUALITY_WIDTHS.POOR,
          },
        }
      : {}),
  };
}

/** The latest picture of a listed camera, or undefined when it has none yet. */
const latestOf = (item: CameraListItem) =>
  item.images
    .filter((image) => image !== null)
    .map((image) => image.name)
    .sort()
    .at(-1);

// The page frame, heading and header's room come from the shell's inline base styles; this lays the picture out
// as the camera page does (mf-map .camera-view). Nothing clips the picture (a clip makes the browser count it a
// few pixels smaller, and the page's own copy of it would then be a new, later largest paint): its rounded
// corners are painted over in the page's colour instead.
const FIRST_VIEW_STYLE =
  '#first-view h1{overflow-wrap:anywhere}' +
  '#first-view figure{position:relative;margin:0 0 1rem;max-width:60rem;aspect-ratio:16/9;border-radius:.5rem;background:#10202b}' +
  '#first-view figure::after{content:"";position:absolute;inset:0;border-radius:.5rem;box-shadow:0 0 0 .5rem var(--page);pointer-events:none}' +
  '#first-view img{display:block;width:100%;height:100%;object-fit:contain}' +
  '#main:has(>#first-view)>.remote-outlet{display:none}';

/** The first view's picture by its names, where known: each format's, the JPEG's as the `<img>`'s own. */
export interface FirstViewPicture {
  src: string;
  avif?: string;
  webp?: string;
}

/** The first view's picture as the browser asks for it: its entitlement URL, which redirects to the picture. */
export function firstViewPicture(item: CameraListItem): string | null {
  const latest = latestOf(item);
  return latest ? `/api/Image/Get/camera/${encodeURIComponent(item.webcam.name)}/${latest}.jpg` : null;
}

/**
 * A camera page's first view in the HTML itself: its name and current picture, so the picture loads and
 * paints before any script runs. The page's remote takes over once it has rendered (it removes `#first-view`;
 * until then its container stays hidden); without JavaScript the first view stays.
 */
export function withFirstView(html: string, item: CameraListItem, picture?: FirstViewPicture | null): string {
  const latest = latestOf(item);
  const url = firstViewPicture(item);
  if (!latest || !url) return html;
  const { name } = item.webcam;
  const { src, avif, webp } = picture ?? { src: url };
  const alt = `Webcam ${name}, Aufnahme vom ${momentText(latest)} Uhr`;
  const source = (type: string, srcset: string | undefined) =>
    srcset ? `<source type="${type}" srcset="${escapeHtml(srcset)}">` : '';
  const view =
    `<div id="first-view" data-path="${escapeHtml(cameraPath(name))}"><h1>${escapeHtml(name)}</h1><figure><picture>${source('image/avif', avif)}` +
    `${source('image/webp', webp)}<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" ` +
    `width="480" height="270" fetchpriority="high"></picture></figure></div>`;
  const main = /<main id="main"([^>]*)><\/main>/i;
  if (!main.test(html)) return html;
  return html
    .replace(main, (_all, attributes: string) => `<main id="main"${attributes}>${view}</main>`)
    .replace(/<\/head>/i, () => `<style>${FIRST_VIEW_STYLE}</style></head>`);
}

/**
 * The camera list as the public API gives it, fetched at most every `ttlMs`: crawlers and page loads
 * need no fresher picture than a share preview shows. A failed fetch keeps the last list.
 */
export function createCameraLookup(
  fetchList: () => Promise<CameraListItem[] | null>,
  ttlMs = 30_000,
  now: () => number = Date.now,
): (name: string) => Promise<CameraListItem | undefined> {
  let cameras = new Map<string, CameraListItem>();
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | null = null;
  const refresh = async () => {
    const list = await fetchList().catch(() => null);
    fetchedAt = now();
    if (list) cameras = new Map(list.map((item) => [item.webcam.name, item]));
  };
  return async (name) => {
    if (now() - fetchedAt >= ttlMs) {
      pending ??= refresh().finally(() => {
        pending = null;
      });
      await pending;
    }
    return cameras.get(name);
  };
}

/**
 * `value` as a JSON data block in the page's head, for its code to read instead of asking (PAGE_DATA_IDS);
 * `<` is escaped so no text in it can close the element.
 */
export function withPageData(html: string, id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return html.replace(/<\/head>/i, () => `<script type="application/json" id="${id}">${json}</script></head>`);
}

/** A preconnect to the satellite tiles' server when it is another origin with a fixed host name. */
export function withTilePreconnect(html: string, tileUrl: string): string {
  if (!/^https?:\/\/[^/{}]+\//i.test(tileUrl)) return html;
  const origin = new URL(tileUrl.replace(/\{[^}]*\}/g, '0')).origin;
  return html.replace(/<\/head>/i, () => `<link rel="preconnect" href="${escapeHtml(origin)}"></head>`);
}
