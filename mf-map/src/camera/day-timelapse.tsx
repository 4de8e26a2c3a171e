import { useState } from 'react';
import { timelapseUrl } from '../api/picture-urls.ts';
import { formatDay } from '../cameras/image-time.ts';
import './day-timelapse.css';

/** The clip's frame rate on the server (svc-imaging's encoder): a day at 5-minute pictures plays in 24 s. */
const CLIP_FPS = 12;

const TENTHS = new Intl.NumberFormat('de-CH', { maximumFractionDigits: 1 });
const unit = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * How long a clip of `pictures` plays: tenths under 10 s (a short day is no "1 Sekunde"; written as de-CH writes
 * numbers elsewhere on the site, "0.5"), whole seconds up to a minute, then minutes and seconds.
 */
export function clipDuration(pictures: number): string {
  const seconds = pictures / CLIP_FPS;
  if (seconds < 9.95) {
    const tenths = Math.max(1, Math.round(seconds * 10)) / 10;
    return `${TENTHS.format(tenths)} ${tenths === 1 ? 'Sekunde' : 'Sekunden'}`;
  }
  const whole = Math.round(seconds);
  if (whole < 60) return unit(whole, 'Sekunde', 'Sekunden');
  const minutes = unit(Math.floor(whole / 60), 'Minute', 'Minuten');
  return whole % 60 === 0 ? minutes : `${minutes} und ${unit(whole % 60, 'Sekunde', 'Sekunden')}`;
}

type LinkState = 'idle' | 'copied' | 'shown';

/**
 * The day's time-lapse as a video: nothing of the clip loads until the visitor starts it; it can
 * be downloaded and its link shared or copied.
 */
export function DayTimelapse({
  camera,
  day,
  pictures,
  today,
}: {
  camera: string;
  day: string;
  pictures: number;
  today: boolean;
}) {
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  const [link, setLink] = useState<LinkState>('idle');
  const url = timelapseUrl(camera, day);
  const absolute = new URL(url, window.location.href).href;

  async function shareLink() {
    const title = `Zeitraffer ${camera}, ${formatDay(day)}`;
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share({ title, url: absolute });
        return;
      }
      await navigator.clipboard.writeText(absolute);
      setLink('copied');
    } catch (error) {
      // Closing the share sheet is no failure; anything else: show the link to copy by hand.
      if ((error as Error).name !== 'AbortError') setLink('shown');
    }
  }

  return (
    <section className="day-timelapse" aria-labelledby="day-timelapse-title">
      <h2 id="day-timelapse-title">Zeitraffer als Video</h2>
      <p className="day-timelapse__lead">
        {formatDay(day)} in {clipDuration(pictures)} ({unit(pictures, 'Bild', 'Bilder')}){today && ', laufend ergänzt'}.
      </p>
      {playing ? (
        <video
          className="day-timelapse__video"
          src={url}
          controls
          autoPlay
          muted
          loop
          playsInline
          aria-label={`Zeitraffer ${camera}, ${formatDay(day)}`}
          onError={() => setFailed(true)}
        />
      ) : (
        <button type="button" className="day-timelapse__play" onClick={() => setPlaying(true)}>
          ▶ Video abspielen
        </button>
      )}
      {failed && (
        <p className="status-note status-note--error" role="alert">
          Der Zeitraffer konnte nicht geladen werden. Bitte später erneut versuchen.
        </p>
      )}
      <p className="day-timelapse__actions">
        <a href={url} download={`${camera}-${day}.mp4`}>
          Herunterladen (MP4)
        </a>
        <button type="button" className="button-quiet" onClick={shareLink}>
          Link teilen
        </button>
        {link === 'copied' && <span role="status">Link kopiert.</span>}
      </p>
      {link === 'shown' && (
        <label className="day-timelapse__link">
          Link zum Kopieren
          <input type="text" readOnly value={absolute} onFocus={(event) => event.currentTarget.select()} />
        </label>
      )}
    </section>
  );
}
