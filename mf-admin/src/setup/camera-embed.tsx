import type { Webcam } from '@lakecams/contracts';
import { useId, useRef, useState } from 'react';
import { cameraImagePath, pagePreviewUrl } from '../api/picture-urls.ts';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';
import { EMBED_REFERRER_POLICY, embedSnippet } from './embed-snippet.ts';

/** Image size, download link, the `<img>` tag to copy and the composed image as partners see it. */
export function CameraEmbed({ webcam, url, imageVersion }: { webcam: Webcam; url: string; imageVersion: number }) {
  const api = useAdminApi();
  const snippetId = useId();
  const snippetNoteId = useId();
  const snippetRef = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const info = useLoaded(() => api.cameraInfo(webcam.id), 'Die Bildgrösse ist noch nicht bekannt.', [api, webcam.id]);
  const snippet = embedSnippet(window.location.origin, webcam.name, info.data ?? null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('yes');
    } catch {
      // No clipboard permission: select the text so the user copies it by hand.
      snippetRef.current?.select();
      setCopied('failed');
    }
  }

  return (
    <section className="admin-section panel" aria-labelledby="embed-heading">
      <h2 id="embed-heading">Einbetten</h2>
      <div className="embed__grid">
        <div className="embed__facts">
          <p>
            Bildgrösse:{' '}
            <strong>
              {info.data ? `${info.data.width} × ${info.data.height} Pixel` : info.error ? 'unbekannt' : '…'}
            </strong>
          </p>
          {info.error && <p className="muted">{info.error}</p>}
          <p>
            <a href={cameraImagePath(webcam.name)} download={`${webcam.name}.jpg`}>
              Bild herunterladen ({webcam.name}.jpg)
            </a>
          </p>
          <div className="form-field">
            <label htmlFor={snippetId}>Einbettungscode</label>
            <textarea
              id={snippetId}
              ref={snippetRef}
              className="embed__snippet"
              readOnly
              rows={6}
              value={snippet}
              aria-describedby={snippetNoteId}
              onFocus={(event) => event.currentTarget.select()}
            />
            <p id={snippetNoteId} className="muted embed__note">
              Bitte unverändert übernehmen: <code>referrerpolicy="{EMBED_REFERRER_POLICY}"</code> lässt den Browser die
              volle Adresse Ihrer Seite mitsenden, an der wir Ihre Buchung (Qualität und Layer) erkennen. Ohne das
              Attribut kommt nur die Domain an; das genügt nur, solange auf ihr eine einzige Seite diese Webcam gebucht
              hat.
            </p>
          </div>
          <div className="form-actions">
            <button type="button" onClick={() => void copy()}>
              Code kopieren
            </button>
            <span role="status" className="muted">
              {copied === 'yes' ? 'Kopiert.' : copied === 'failed' ? 'Bitte mit Ctrl+C kopieren.' : ''}
            </span>
          </div>
        </div>
        <figure className="embed__preview">
          <img
            src={pagePreviewUrl(webcam.name, url, imageVersion)}
            alt={`Vorschau: ${webcam.name} mit Layern`}
            width={info.data?.width}
            height={info.data?.height}
          />
          <figcaption className="muted">
            So erhält {url} das Bild, mit Qualität und Layern; es lädt nach jeder Layer-Änderung neu.
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
