import type { CameraBestOf, Image } from '@lakecams/contracts';
import { useSessionClient } from '@lakecams/session';
import { ModalDialog } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { fetchImageHistory } from '../camera/image-history.ts';
import { clockTimeOf, formatDay } from '../cameras/image-time.ts';
import { imageUrl } from '../api/picture-urls.ts';
import { chooseBestOf } from './best-of-api.ts';

/**
 * For admins: choose another picture of the day as the camera's best, or give the choice back to the score. The
 * day's pictures open in a dialog, wide enough for thumbnails one can tell apart (a card is too narrow for that).
 */
export function BestOfPicker({ best, day, onChosen }: { best: CameraBestOf; day: string; onChosen: () => void }) {
  const [open, setOpen] = useState(false);
  const [images, setImages] = useState<Image[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { api } = useSessionClient();

  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    fetchImageHistory(best.camera, day, abort.signal).then(
      (history) => setImages(history?.images ?? []),
      () => {
        if (!abort.signal.aborted) setProblem('Die Bilder des Tages konnten nicht geladen werden.');
      },
    );
    return () => abort.abort();
  }, [open, best.camera, day]);

  const choose = async (image: string | null) => {
    setSaving(true);
    setProblem(null);
    try {
      await chooseBestOf(api, best.camera, day, image);
      setOpen(false);
      onChosen();
    } catch {
      setProblem('Die Auswahl konnte nicht gespeichert werden.');
    } finally {
      setSaving(false);
    }
  };

  const problemNote = problem && (
    <p className="status-note status-note--error" role="alert">
      {problem}
    </p>
  );

  return (
    <div className="best-of-picker">
      <div className="best-of-picker__actions">
        <button
          type="button"
          className="button-quiet"
          onClick={() => {
            setProblem(null);
            setImages(null);
            setOpen(true);
          }}
          aria-haspopup="dialog"
        >
          Anderes Bild wählen
        </button>
        {best.chosenBy === 'admin' && (
          <button type="button" className="button-quiet" disabled={saving} onClick={() => choose(null)}>
            Automatisch wählen
          </button>
        )}
      </div>
      {!open && problemNote}
      {open && (
        <ModalDialog title={`Bild des Tages von ${best.camera} wählen`} wide onClose={() => setOpen(false)}>
          <p className="best-of-picker__lead">{formatDay(day)}: Wählen Sie ein Bild.</p>
          {problemNote}
          {images === null && !problem && <p role="status">Bilder werden geladen …</p>}
          {images?.length === 0 && <p>Für diesen Tag gibt es keine Bilder.</p>}
          {images && images.length > 0 && (
            <ul className="best-of-picker__images" aria-label={`Bilder von ${best.camera}`}>
              {images.map((image) => (
                <li key={image.name}>
                  <button
                    type="button"
                    disabled={saving}
                    aria-pressed={image.name === best.name}
                    onClick={() => choose(image.name)}
                    title={`${clockTimeOf(image.name)} Uhr als Bild des Tages wählen`}
                  >
                    <img src={imageUrl(best.camera, image.name)} alt="" width={160} height={90} loading="lazy" />
                    <span>
                      {clockTimeOf(image.name)}
                      {image.name === best.name && ' · aktuell'}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </ModalDialog>
      )}
    </div>
  );
}
