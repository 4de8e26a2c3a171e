import type { Webcam } from '@lakecams/contracts';
import { useId, useRef, useState } from 'react';
import { playerFramePath } from '../api/picture-urls.ts';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';
import { bookingMismatch, frameSnippet, playerSnippet } from './embed-snippet.ts';

/** A snippet to copy, with its button and what the copy did. */
function SnippetField({ label, value, note }: { label: string; value: string; note: string }) {
  const id = useId();
  const noteId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      field.current?.select();
      setCopied('failed');
    }
  }
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={field}
        className="embed__snippet"
        readOnly
        rows={4}
        value={value}
        aria-describedby={noteId}
        onFocus={(event) => event.currentTarget.select()}
      />
      <p id={noteId} className="muted embed__note">
        {note}
      </p>
      <div className="form-actions">
        <button type="button" onClick={() => void copy()}>
          {label} kopieren
        </button>
        <span role="status" className="muted">
          {copied === 'yes' ? 'Kopiert.' : copied === 'failed' ? 'Bitte mit Ctrl+C kopieren.' : ''}
        </span>
      </div>
    </div>
  );
}

const dayLabel = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

/**
 * The player partners embed (docs/decisions.md, "The embedded player's two forms"): both snippets, a live preview
 * as the booked page shows it, a warning for a page the booking does not cover, and the player's views per day
 * ("Counting embed views").
 */
export function PlayerEmbed({ webcam, url }: { webcam: Webcam; url: string }) {
  const api = useAdminApi();
  const pageId = useId();
  const warningId = useId();
  const [page, setPage] = useState(url);
  const [pageFor, setPageFor] = useState(url);
  // Another booked page chosen: its own address to check.
  if (pageFor !== url) {
    setPageFor(url);
    setPage(url);
  }
  const mismatch = bookingMismatch(page, url);
  const views = useLoaded(() => api.embedViews(webcam.name, url), 'Die Aufrufe können gerade nicht geladen werden.', [
    api,
    webcam.name,
    url,
  ]);
  const origin = window.location.origin;
  const total = views.data?.days.reduce((sum, day) => sum + day.views, 0) ?? 0;

  return (
    <section className="admin-section panel" aria-labelledby="player-heading">
      <h2 id="player-heading">Player einbetten</h2>
      <p className="muted">
        Der Player zeigt {webcam.name} live auf Ihrer Seite: das aktuelle Bild in Ihrer gebuchten Qualität mit Ihren
        Layern, sein Alter, einen Tages-Schieberegler, den Zeitraffer des Tages und die Vollbild-Ansicht.
      </p>
      <div className="embed__grid">
        <div className="embed__facts">
          <div className="form-field">
            <label htmlFor={pageId}>Seite, auf der der Player erscheint</label>
            <input
              id={pageId}
              type="url"
              value={page}
              onChange={(event) => setPage(event.target.value)}
              aria-describedby={mismatch ? warningId : undefined}
              aria-invalid={mismatch ? true : undefined}
            />
            {mismatch && (
              <p id={warningId} className="form-field__error" role="alert">
                {mismatch}
              </p>
            )}
          </div>
          <SnippetField
            label="Player-Code"
            value={playerSnippet(origin, webcam.name)}
            note="Skript und Element: der leichteste Weg (unter 5 KiB). Attribute: width und height (Pixel), size=&quot;fill&quot; füllt seinen Rahmen, controls=&quot;none&quot; zeigt nur das Bild, lang=&quot;en&quot; spricht Englisch."
          />
          <SnippetField
            label="iframe-Code"
            value={frameSnippet(origin, webcam.name)}
            note="Für Seiten, die keine fremden Skripte erlauben. Das Attribut referrerpolicy lässt uns Ihre Seite und damit Ihre Buchung erkennen."
          />
        </div>
        <figure className="embed__preview">
          <iframe
            className="embed__player"
            src={playerFramePath(webcam.name, url)}
            title={`Vorschau des Players für ${url}`}
            width={640}
            height={420}
            allow="fullscreen"
          />
          <figcaption className="muted">So zeigt {url} den Player, live, mit Qualität und Layern.</figcaption>
        </figure>
      </div>
      <h3 className="embed__views-heading">Aufrufe des Players</h3>
      {views.error && <p className="form-field__error">{views.error}</p>}
      {views.data &&
        (views.data.days.length === 0 ? (
          <p className="muted">In den letzten 30 Tagen noch keine Aufrufe von {url}.</p>
        ) : (
          <table className="data-table embed__views">
            <caption className="muted">
              {total} Aufrufe von {url} in den letzten 30 Tagen (ohne Angaben zu den Besuchern)
            </caption>
            <thead>
              <tr>
                <th scope="col">Tag</th>
                <th scope="col">Aufrufe</th>
              </tr>
            </thead>
            <tbody>
              {views.data.days.map((day) => (
                <tr key={day.day}>
                  <td>{dayLabel(day.day)}</td>
                  <td>{day.views}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
