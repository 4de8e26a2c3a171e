import { useSession } from '@lakecams/session';
import { type RefObject, useEffect, useState } from 'react';
import { Link } from 'react-router';
import './quality-note.css';

/** A picture is blown up when it has fewer pixels across than the box it fills (one pixel of rounding spared). */
export function isUpscaled(naturalWidth: number, displayedWidth: number): boolean {
  return naturalWidth > 0 && naturalWidth < displayedWidth - 1;
}

/** Whether the picture in `image` is shown wider than its pixels; measured at each load and resize. */
export function useUpscaled(image: RefObject<HTMLImageElement | null>, src: string | undefined): boolean {
  const [upscaled, setUpscaled] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another picture in the same element is measured again.
  useEffect(() => {
    const element = image.current;
    if (!element) return setUpscaled(false);
    const measure = () => setUpscaled(isUpscaled(element.naturalWidth, element.getBoundingClientRect().width));
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
 * Says why the picture looks soft and how the visitor gets more pixels: an account, then Premium
 * (docs/product.md §4.7).
 */
export function QualityNote() {
  const { user, roles, isAdmin } = useSession();
  const signedIn = user?.emailConfirmed === true;
  if (isAdmin || roles.includes('Premium')) {
    return <p className="quality-note">Vergrössert dargestellt: die Kamera liefert dieses Bild nicht grösser.</p>;
  }
  return (
    <p className="quality-note">
      Vergrössert dargestellt.{' '}
      {signedIn ? (
        <Link to="/referes-list">Schärfere Bilder mit Premium</Link>
      ) : (
        <Link to="/register">Bessere Qualität mit einem Konto</Link>
      )}
    </p>
  );
}
