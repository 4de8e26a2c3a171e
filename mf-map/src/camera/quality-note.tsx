import { type Quality, QUALITY_WIDTHS, ROLES } from '@lakecams/contracts';
import { useSession } from '@lakecams/session';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { QUALITY_LABELS } from '../pricing/prices.ts';
import { qualityOf } from '../viewer/viewer-source.ts';
import './quality-note.css';

/** Beyond two screen pixels per CSS pixel few eyes see more, so a 3× phone is judged as a 2× one. */
export const MAX_USEFUL_DENSITY = 2;

/**
 * A picture is blown up when it has fewer pixels across than the screen pixels of the box it fills (one pixel
 * of rounding spared): a 480 px picture in 358 CSS px of a 3× phone is.
 */
export function isUpscaled(naturalWidth: number, displayedWidth: number, density = 1): boolean {
  const screenPixels = displayedWidth * Math.min(Math.max(density, 1), MAX_USEFUL_DENSITY);
  return naturalWidth > 0 && naturalWidth < screenPixels - 1;
}

/** The picture's own width when it is shown wider than its pixels, else null; measured at each load and resize. */
export function useUpscaled(image: RefObject<HTMLImageElement | null>, src: string | undefined): number | null {
  const [upscaled, setUpscaled] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another picture in the same element is measured again.
  useEffect(() => {
    const element = image.current;
    if (!element) return setUpscaled(null);
    const measure = () => {
      const { naturalWidth } = element;
      const density = typeof window === 'undefined' ? 1 : window.devicePixelRatio;
      setUpscaled(isUpscaled(naturalWidth, element.getBoundingClientRect().width, density) ? naturalWidth : null);
    };
    measure();
    element.addEventListener('load', measure);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    observer?.observe(element);
    return () => {
      element.removeEventListener('load', measure);
      observer?.disconnect();
    };
  }, [image, src]);
  return upscaled;
}

/**
 * Whether a note may come under the picture in `frame`, known before it loads, so its room is kept only then: a
 * visitor's picture is POOR, and a note comes when that is narrower than the screen pixels of the frame; what a
 * signed-in viewer gets is known only from the picture. Measured before the first paint and at each resize.
 */
export function useNoteExpected(frame: RefObject<HTMLElement | null>, viewer: Viewer): boolean {
  const [expected, setExpected] = useState(true);
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element || viewer !== 'visitor') return setExpected(true);
    const measure = () => {
      // While the gateway's first view stands in for the page, the page is hidden; its picture is as wide as ours.
      const width =
        element.getBoundingClientRect().width ||
        document.querySelector('#first-view figure')?.getBoundingClientRect().width ||
        0;
      // Not laid out at all: keep the room rather than guess.
      setExpected(width === 0 || isUpscaled(QUALITY_WIDTHS.POOR, width, window.devicePixelRatio));
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    observer?.observe(element);
    return () => observer?.disconnect();
  }, [frame, viewer]);
  return expected;
}

/** What the picture's answer says of it: the level the visitor got and how wide the camera took it. */
export interface PictureFacts {
  level: Quality | null;
  fullWidth: number | null;
}

/** The level and the camera's width of a picture URL, from its answer's headers (HEAD: no bytes). */
export async function pictureFacts(url: string, signal?: AbortSignal): Promise<PictureFacts> {
  const response = await fetch(url, { method: 'HEAD', ...(signal ? { signal } : {}) });
  const fullWidth = Number(response.headers.get('x-image-full-width'));
  return {
    level: qualityOf(response.headers.get('x-image-quality')),
    fullWidth: Number.isInteger(fullWidth) && fullWidth > 0 ? fullWidth : null,
  };
}

export type Viewer = 'visitor' | 'member' | 'premium' | 'admin';

export interface QualityNoteContent {
  text: string;
  link?: { to: string; label: string };
}

/** How a note starts: under the camera page's picture, or in the viewer zoomed as far as the pixels go. */
export type NoteLead = 'Vergrössert dargestellt' | 'Weiter vergrössern geht nicht';

/**
 * Why the picture looks soft, and the next step: the camera's limit, or the level the visitor got with the way
 * to a better one (an account, then Premium; docs/product.md §4.7).
 */
export function qualityNoteContent(
  facts: PictureFacts | null,
  naturalWidth: number,
  viewer: Viewer,
  lead: NoteLead = 'Vergrössert dargestellt',
): QualityNoteContent {
  if (!facts?.level) return { text: `${lead}.` };
  if (facts.level === 'FULL' || (facts.fullWidth !== null && naturalWidth >= facts.fullWidth))
    return { text: `${lead}: die Kamera liefert dieses Bild nicht grösser.` };
  const camera = facts.fullWidth ? `, die Kamera liefert ${facts.fullWidth} px` : '';
  const text = `${lead}: ${QUALITY_LABELS[facts.level]} (${naturalWidth} px breit)${camera}.`;
  const link = {
    visitor: { to: '/register', label: 'Bessere Qualität mit einem Konto' },
    member: { to: '/referes-list#premium', label: 'Schärfere Bilder mit Premium' },
    premium: { to: '/contact', label: 'Höhere Qualität anfragen' },
    admin: { to: '/edit/webcams', label: 'Qualität in der Kameraverwaltung einstellen' },
  }[viewer];
  return { text, link };
}

/** Who looks, for the next step a note offers. */
export function useViewer(): Viewer {
  const { user, roles, isAdmin } = useSession();
  if (isAdmin) return 'admin';
  if (roles.includes(ROLES.premium)) return 'premium';
  return user?.emailConfirmed === true ? 'member' : 'visitor';
}

/** A note's text with its link, as a paragraph. */
export function NoteText({ content, className }: { content: QualityNoteContent; className: string }) {
  return (
    <p className={className}>
      {content.text}
      {content.link && (
        <>
          {' '}
          <Link to={content.link.to}>{content.link.label}</Link>
        </>
      )}
    </p>
  );
}

/**
 * The note under a blown-up picture. Its facts are asked once (HEAD on `src`) per camera and kind of viewer: the
 * level is the same for all of a camera's pictures, so stepping through the day or playing it asks nothing more.
 */
export function QualityNote({ camera, src, naturalWidth }: { camera: string; src: string; naturalWidth: number }) {
  const viewer = useViewer();
  const [facts, setFacts] = useState<PictureFacts | null>(null);
  const current = useRef(src);
  current.current = src;
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again for another camera or viewer, not per picture.
  useEffect(() => {
    const abort = new AbortController();
    const url = current.current;
    setFacts(null);
    pictureFacts(url, abort.signal).then(setFacts, (error: unknown) => {
      if (!abort.signal.aborted) console.error(`Reading the level of ${url} failed`, error);
    });
    return () => abort.abort();
  }, [camera, viewer]);
  return <NoteText content={qualityNoteContent(facts, naturalWidth, viewer)} className="quality-note" />;
}
