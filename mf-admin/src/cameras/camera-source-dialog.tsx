import {
  CAMERA_LOGIN_RULES,
  cameraPath,
  type CameraSource,
  type CameraSourceKind,
  type CameraSourceUpdate,
  type ConnectionFailure,
  type ConnectionTestResult,
  localDateParts,
  type StreamTransport,
  validateForm,
  type Webcam,
} from '@lakecams/contracts';
import { ApiError, useSessionClient } from '@lakecams/session';
import { Form, FormActions, type FormState, ModalDialog, Notice, TextField, useForm } from '@lakecams/ui-kit';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../actions/confirm-dialog.tsx';
import { ActionFailure, useAction } from '../actions/use-action.tsx';
import type { ConnectionTestRequest } from '../api/admin-api.ts';
import { useAdminApi } from '../api/use-admin-api.ts';
import { type CaptureResult, jobsApi } from '../api/jobs-api.ts';
import { LoadStatus } from '../loading/load-status.tsx';
import { useLoaded } from '../loading/use-loaded.ts';
import './camera-source-dialog.css';

export const SOURCE_KINDS: readonly { kind: CameraSourceKind; label: string; description: string }[] = [
  {
    kind: 'http',
    label: 'Bild abrufen (HTTP/HTTPS)',
    description: 'Das Portal holt im Intervall das Bild unter der Adresse der Webcam.',
  },
  {
    kind: 'stream',
    label: 'Stream (RTSP, HLS, MJPEG)',
    description: 'Das Portal nimmt im Intervall ein Bild aus dem Stream der Webcam.',
  },
  {
    kind: 'ftp',
    label: 'Kamera lädt per FTP/FTPS hoch',
    description: 'Die Kamera sendet ihre Bilder selbst an den FTP-Server des Portals.',
  },
  {
    kind: 'push',
    label: 'Kamera lädt per HTTP hoch',
    description: 'Die Kamera oder ein Skript sendet ihre Bilder per HTTP PUT oder POST.',
  },
];

const kindLabel = (kind: CameraSourceKind) => SOURCE_KINDS.find((choice) => choice.kind === kind)?.label ?? kind;

/** Why "Verbindung testen" found no picture, in German; the server's English message adds detail where useful. */
export const FAILURE_TEXTS: Record<ConnectionFailure, string> = {
  dns: 'Der Name des Servers ist unbekannt (DNS).',
  refused: 'Die Kamera nimmt keine Verbindung an.',
  timeout: 'Die Kamera antwortet nicht rechtzeitig.',
  login: 'Die Kamera lehnt die Anmeldung ab.',
  'not-found': 'Unter dieser Adresse gibt es kein Bild (404).',
  'not-a-picture': 'Die Antwort ist kein Bild.',
  'too-large': 'Das Bild ist zu gross.',
  'no-frame': 'Der Stream liefert kein Bild.',
  other: 'Das Bild konnte nicht geholt werden.',
};

/** The login's scheme (Digest, Basic) and an unknown cause are only in the server's message. */
const FAILURES_WITH_DETAIL: readonly ConnectionFailure[] = ['login', 'other'];

const decimal = (value: number) =>
  value.toLocaleString('de-CH', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A number and its unit stay on one line. */
const NBSP = '\u00a0';

/** 800 → "0.8 s"; below a tenth still says something. */
export function secondsText(ms: number): string {
  return ms < 50 ? `unter 0.1${NBSP}s` : `${decimal(ms / 1000)}${NBSP}s`;
}

export function sizeText(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))}${NBSP}KB`
    : `${decimal(bytes / 1024 / 1024)}${NBSP}MB`;
}

/** "Letztes Bild: 27.11.2026, 08:50 Uhr per FTP", in the region's time. */
export function lastUploadText(lastUpload: CameraSource['lastUpload']): string {
  if (!lastUpload) return 'Noch kein Bild empfangen';
  const { dd, MM, yyyy, HH, mm } = localDateParts(new Date(lastUpload.at));
  return `Letztes Bild: ${dd}.${MM}.${yyyy}, ${HH}:${mm} Uhr per ${lastUpload.via === 'ftp' ? 'FTP' : 'HTTP'}`;
}

/** A replacement for something shown once: asked first, as the old one stops working. */
interface Confirmation {
  title: string;
  text: string;
  confirmLabel: string;
  failure: string;
  run: () => Promise<void>;
  /** The button that asked; focus goes back to it. */
  from: HTMLElement | null;
}

/** "Bildquelle": how a camera's pictures reach the portal, its login, its upload accounts and a test. */
export function CameraSourceDialog({ webcam, onClose }: { webcam: Webcam; onClose: () => void }) {
  const api = useAdminApi();
  const source = useLoaded(() => api.cameraSource(webcam.id), 'Die Bildquelle konnte nicht geladen werden.', [
    api,
    webcam.id,
  ]);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const focusAfter = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (confirmation || !focusAfter.current) return;
    focusAfter.current.focus();
    focusAfter.current = null;
  }, [confirmation]);
  const closeConfirmation = () => {
    focusAfter.current = confirmation?.from ?? null;
    setConfirmation(null);
  };

  // The question is a sibling, not a child: a nested dialog's Escape would close this one as well.
  return (
    <>
      <ModalDialog title={`Bildquelle für ${webcam.name}`} onClose={onClose} wide>
        <LoadStatus loaded={source} loadingText="Bildquelle wird geladen …" />
        {source.data && (
          <SourceForm
            webcam={webcam}
            stored={source.data}
            onStored={(next) => source.update(() => next)}
            reloading={source.loading}
            onReload={source.reload}
            onConfirm={setConfirmation}
            onClose={onClose}
          />
        )}
      </ModalDialog>
      {confirmation && (
        <ConfirmDialog
          title={confirmation.title}
          confirmLabel={confirmation.confirmLabel}
          failure={confirmation.failure}
          onConfirm={confirmation.run}
          onClose={closeConfirmation}
        >
          <p>{confirmation.text}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

type LoginField = 'username' | 'password' | 'transport';

function validateLogin(values: Record<LoginField, string>) {
  return {
    ...validateForm(CAMERA_LOGIN_RULES, values),
    ...(values.password.length > 200 ? { password: 'Höchstens 200 Zeichen' } : {}),
  };
}

interface SourceFormProps {
  webcam: Webcam;
  stored: CameraSource;
  onStored: (source: CameraSource) => void;
  reloading: boolean;
  onReload: () => void;
  onConfirm: (confirmation: Confirmation) => void;
  onClose: () => void;
}

/**
 * Buttons here are aria-disabled while they run, never disabled: a disabled button drops the focus to the page
 * behind the dialog.
 */
function SourceForm({ webcam, stored, onStored, reloading, onReload, onConfirm, onClose }: SourceFormProps) {
  const api = useAdminApi();
  const [kind, setKind] = useState<CameraSourceKind>(stored.kind);
  const form = useForm<LoginField>(
    { username: stored.username, password: '', transport: stored.transport },
    validateLogin,
  );
  const save = useAction();
  const { api: client } = useSessionClient();
  const jobs = useMemo(() => jobsApi(client), [client]);
  /** The capture made right after saving a pulled source: the admin sees the first picture without waiting a tick. */
  const [firstCapture, setFirstCapture] = useState<CaptureResult | 'running' | 'taken' | null>(null);

  /** A password typed now; empty keeps the stored one, so it is left out. */
  const typedPassword = form.values.password === '' ? {} : { password: form.values.password };
  const pulled = kind === 'http' || kind === 'stream';

  async function submit() {
    if (save.busy || (pulled && !form.attemptSubmit())) return;
    const update: CameraSourceUpdate = pulled
      ? {
          kind,
          username: form.values.username.trim(),
          ...typedPassword,
          ...(kind === 'stream' ? { transport: form.values.transport as StreamTransport } : {}),
        }
      : { kind };
    setFirstCapture(null);
    const saved = await save.run(async () => {
      onStored(await api.saveCameraSource(webcam.id, update));
      form.reset({ ...form.values, username: update.username ?? form.values.username, password: '' });
    }, 'Die Bildquelle konnte nicht gespeichert werden.');
    if (saved && pulled) await captureNow();
  }

  async function captureNow() {
    setFirstCapture('running');
    try {
      setFirstCapture(await jobs.retry(webcam.id));
    } catch (error) {
      // 409: this minute's picture exists already, taken with the settings just saved or the ones before.
      setFirstCapture(
        error instanceof ApiError && error.status === 409
          ? 'taken'
          : { outcome: 'failed', error: error instanceof Error ? error.message : String(error) },
      );
    }
  }

  const changed = (change: () => void) => {
    save.reset();
    setFirstCapture(null);
    change();
  };

  return (
    <Form onSubmit={() => void submit()} label="Bildquelle">
      <fieldset className="source-kinds">
        <legend>Wie liefert die Kamera ihre Bilder?</legend>
        <div className="source-kinds__choices">
          {SOURCE_KINDS.map((choice) => (
            <KindChoice
              key={choice.kind}
              choice={choice}
              checked={kind === choice.kind}
              onChoose={() => changed(() => setKind(choice.kind))}
            />
          ))}
        </div>
      </fieldset>

      {pulled && (
        <PulledSource
          webcam={webcam}
          kind={kind}
          stored={stored}
          form={form}
          onChanged={() => save.reset()}
          onStored={onStored}
          request={{
            kind,
            url: webcam.pattern,
            ...(form.values.username.trim() ? { username: form.values.username.trim() } : {}),
            ...typedPassword,
            ...(kind === 'stream' ? { transport: form.values.transport as StreamTransport } : {}),
          }}
        />
      )}
      {kind === 'ftp' && (
        <FtpSource
          webcam={webcam}
          stored={stored}
          onStored={onStored}
          onConfirm={onConfirm}
          reloading={reloading}
          onReload={onReload}
        />
      )}
      {kind === 'push' && (
        <PushSource
          webcam={webcam}
          stored={stored}
          onStored={onStored}
          onConfirm={onConfirm}
          reloading={reloading}
          onReload={onReload}
        />
      )}

      {kind !== stored.kind && (
        <p className="muted source-unsaved">
          Noch nicht gespeichert: die Webcam liefert ihre Bilder bis dahin weiter per «{kindLabel(stored.kind)}».
        </p>
      )}
      <ActionFailure action={save} />
      {save.done && (
        <Notice tone="success">
          <p>Gespeichert: {kindLabel(stored.kind)}.</p>
        </Notice>
      )}
      {firstCapture && <FirstCapture webcam={webcam} result={firstCapture} />}
      <FormActions>
        <button type="submit" aria-disabled={save.busy}>
          Speichern
        </button>
        <button type="button" className="button--secondary" onClick={onClose}>
          Schliessen
        </button>
      </FormActions>
    </Form>
  );
}

/** What the capture right after saving brought: the way to the picture, or why there is none. */
function FirstCapture({ webcam, result }: { webcam: Webcam; result: CaptureResult | 'running' | 'taken' }) {
  if (result === 'running')
    return (
      <p className="muted" role="status">
        Erstes Bild wird aufgenommen …
      </p>
    );
  if (result !== 'taken' && result.outcome === 'failed')
    return (
      <Notice tone="error">
        <p>Die Aufnahme hat nicht geklappt: {result.error}</p>
      </Notice>
    );
  return (
    <Notice tone="success">
      <p>
        {result === 'taken' ? 'Diese Minute ist schon aufgenommen.' : 'Erstes Bild aufgenommen.'}{' '}
        <Link to={cameraPath(webcam.name)}>Bild von {webcam.name} ansehen</Link>
      </p>
    </Notice>
  );
}

function KindChoice({
  choice,
  checked,
  onChoose,
}: {
  choice: (typeof SOURCE_KINDS)[number];
  checked: boolean;
  onChoose: () => void;
}) {
  const id = useId();
  // Named by its label alone: the description is read as such, not as part of the name.
  return (
    <label className="source-kind" htmlFor={`${id}-input`}>
      <input
        id={`${id}-input`}
        type="radio"
        name="kind"
        value={choice.kind}
        checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-description`}
        onChange={onChoose}
      />
      <span id={`${id}-label`} className="source-kind__label">
        {choice.label}
      </span>
      <span id={`${id}-description`} className="source-kind__description">
        {choice.description}
      </span>
    </label>
  );
}

interface PulledSourceProps {
  webcam: Webcam;
  kind: CameraSourceKind;
  stored: CameraSource;
  form: FormState<LoginField>;
  onChanged: () => void;
  onStored: (source: CameraSource) => void;
  request: ConnectionTestRequest;
}

/** Fetched by the portal: the camera's URL (from "Bearbeiten"), its login, and "Verbindung testen". */
function PulledSource({ webcam, kind, stored, form, onChanged, onStored, request }: PulledSourceProps) {
  const api = useAdminApi();
  const urlId = useId();
  const transportId = useId();
  const passwordBox = useRef<HTMLDivElement>(null);
  const removal = useAction();
  const test = useAction();
  const [result, setResult] = useState<ConnectionTestResult | null>(null);

  const bound = (name: LoginField) => {
    const field = form.field(name);
    return {
      ...field,
      onValueChange: (value: string) => {
        onChanged();
        field.onValueChange(value);
      },
    };
  };

  async function removePassword() {
    if (removal.busy) return;
    // Only the password changes: the kind and user stay as stored.
    const removed = await removal.run(
      async () => onStored(await api.saveCameraSource(webcam.id, { kind: stored.kind, password: '' })),
      'Das Passwort konnte nicht entfernt werden.',
    );
    // Its button is gone: focus stays in the dialog, on the field it was about.
    if (removed) passwordBox.current?.querySelector('input')?.focus();
  }

  async function runTest() {
    if (test.busy) return;
    setResult(null);
    await test.run(
      async () => setResult(await api.testCameraSource(webcam.id, request)),
      'Die Verbindung konnte nicht getestet werden.',
    );
  }

  return (
    <section className="dialog-section source-section" aria-labelledby={`${urlId}-heading`}>
      <h3 id={`${urlId}-heading`} className="dialog-section-title">
        {kind === 'stream' ? 'Stream der Kamera' : 'Bild der Kamera'}
      </h3>
      <div className="form-field">
        <label htmlFor={urlId}>{kind === 'stream' ? 'Adresse des Streams' : 'Adresse des Bildes'}</label>
        <input
          id={urlId}
          className="source-url"
          type="text"
          readOnly
          value={webcam.pattern}
          aria-describedby={`${urlId}-hint`}
        />
        <div className="form-field__meta">
          <span id={`${urlId}-hint`}>Die Adresse der Webcam; ändern unter «Bearbeiten».</span>
        </div>
      </div>
      <div className="form-row">
        <TextField field={bound('username')} label="Benutzer" autoComplete="off" />
        <div ref={passwordBox} className="source-password">
          <TextField
            field={bound('password')}
            label="Passwort"
            type="password"
            autoComplete="new-password"
            {...(stored.passwordSet
              ? { placeholder: 'gesetzt', hint: 'Leer lassen: bleibt; «Passwort entfernen» löscht es.' }
              : {})}
          />
          {stored.passwordSet && (
            <button
              type="button"
              className="button--secondary button--small"
              aria-disabled={removal.busy}
              onClick={() => void removePassword()}
            >
              Passwort entfernen
            </button>
          )}
        </div>
      </div>
      <ActionFailure action={removal} />
      <p className="visually-hidden" role="status">
        {removal.done && !stored.passwordSet ? 'Das Passwort ist entfernt.' : ''}
      </p>
      {kind === 'stream' && (
        <div className="form-field source-transport">
          <label htmlFor={transportId}>Transport</label>
          <select
            id={transportId}
            name="transport"
            value={form.values.transport}
            aria-describedby={`${transportId}-hint`}
            onChange={(event) => {
              onChanged();
              form.setValue('transport', event.target.value);
            }}
          >
            <option value="tcp">TCP</option>
            <option value="udp">UDP</option>
          </select>
          <div className="form-field__meta">
            <span id={`${transportId}-hint`}>Nur für RTSP. TCP kommt durch die meisten Firewalls.</span>
          </div>
        </div>
      )}
      <FormActions>
        <button
          type="button"
          className="button--secondary"
          aria-disabled={test.busy}
          aria-busy={test.busy}
          onClick={() => void runTest()}
        >
          Verbindung testen
        </button>
      </FormActions>
      <ActionFailure action={test} />
      <div className="source-test" role="status" aria-live="polite">
        {test.busy && <p className="muted">Verbindung wird getestet …</p>}
        {result && <TestResult webcam={webcam} result={result} />}
      </div>
    </section>
  );
}

function TestResult({ webcam, result }: { webcam: Webcam; result: ConnectionTestResult }) {
  if (!result.ok) {
    return (
      <div className="notice notice--error source-test__failure">
        <p>{FAILURE_TEXTS[result.reason] ?? FAILURE_TEXTS.other}</p>
        {FAILURES_WITH_DETAIL.includes(result.reason) && (
          <p className="source-test__detail">
            <small>{result.message}</small>
          </p>
        )}
        <p className="source-test__time">Dauer: {secondsText(result.ms)}</p>
      </div>
    );
  }
  const width = Math.min(480, result.width);
  return (
    <div className="notice notice--success source-test__success">
      <p>Die Kamera liefert ein Bild.</p>
      <figure className="source-test__picture">
        <img
          src={result.preview}
          alt={`Testbild von ${webcam.name}`}
          width={width}
          height={result.width > 0 ? Math.round((result.height * width) / result.width) : undefined}
        />
        <figcaption>
          {`${result.width} × ${result.height}${NBSP}px, ${sizeText(result.bytes)}, in ${secondsText(result.ms)}`}
        </figcaption>
      </figure>
    </div>
  );
}

interface PushedSourceProps {
  webcam: Webcam;
  stored: CameraSource;
  onStored: (source: CameraSource) => void;
  onConfirm: (confirmation: Confirmation) => void;
  reloading: boolean;
  onReload: () => void;
}

/** Makes a password or secret (asking first when one exists), keeping what was made to show it this once. */
function useShownOnce<T>(make: () => Promise<T>, onConfirm: (confirmation: Confirmation) => void) {
  const action = useAction();
  const [made, setMade] = useState<T | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  return {
    action,
    made,
    button,
    request(exists: boolean, question: Omit<Confirmation, 'run' | 'from'>) {
      if (action.busy) return;
      const run = async () => setMade(await make());
      if (exists) onConfirm({ ...question, run, from: button.current });
      else void action.run(run, question.failure);
    },
  };
}

/** The camera uploads to the portal's FTP server with its own account. */
function FtpSource({ webcam, stored, onStored, onConfirm, reloading, onReload }: PushedSourceProps) {
  const api = useAdminApi();
  const headingId = useId();
  const account = useShownOnce(async () => {
    const made = await api.newFtpPassword(webcam.id);
    onStored({ ...stored, ftp: { ...stored.ftp, user: made.user, passwordSet: true } });
    return made;
  }, onConfirm);
  const { ftp } = stored;
  const host = ftp.host ?? window.location.hostname;
  const user = account.made?.user ?? ftp.user;
  const password = account.made?.password ?? null;
  const shownPassword = password ?? '<Passwort>';
  const curl = `curl -T bild.jpg${ftp.tls ? ' --ftp-ssl' : ''} ftp://${user}:${shownPassword}@${host}:${ftp.port}/`;
  const settings: [string, string][] = [
    ['Server', host],
    ['Port', String(ftp.port)],
    ['Benutzer', user],
    ['Passwort', password ?? (ftp.passwordSet ? '(beim Erzeugen angezeigt)' : '(noch keines)')],
    ['Passiver Modus', 'ja'],
    ['Explizites FTP über TLS', ftp.tls ? 'ja (empfohlen)' : 'nein (nicht angeboten)'],
  ];
  const generateLabel = ftp.passwordSet ? 'Neues Passwort erzeugen' : 'Passwort erzeugen';

  return (
    <section className="dialog-section source-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="dialog-section-title">
        FTP-Zugang der Kamera
      </h3>
      <p className="muted">
        Die Kamera lädt ihre Bilder auf den FTP-Server des Portals ({ftp.tls ? 'FTP oder FTPS' : 'nur FTP, ohne TLS'}
        ); jedes Bild wird sofort das aktuelle Bild der Webcam.
      </p>
      <Secret
        what="Passwort"
        value={password}
        exists={ftp.passwordSet}
        missing="Noch kein Passwort: ohne eines kann die Kamera nicht hochladen."
      />
      <FormActions>
        <button
          ref={account.button}
          type="button"
          className="button--secondary"
          aria-disabled={account.action.busy}
          onClick={() =>
            account.request(ftp.passwordSet, {
              title: `Neues FTP-Passwort für ${webcam.name}`,
              text: 'Das bisherige Passwort gilt danach nicht mehr: die Kamera lädt erst wieder hoch, wenn das neue in ihr eingetragen ist.',
              confirmLabel: 'Neues Passwort erzeugen',
              failure: 'Das Passwort konnte nicht erzeugt werden.',
            })
          }
        >
          {generateLabel}
        </button>
      </FormActions>
      <ActionFailure action={account.action} />

      <h4 className="source-subtitle">Einstellungen in der Kamera</h4>
      <dl className="source-settings" aria-label="FTP-Einstellungen">
        {settings.map(([term, value]) => (
          <div key={term} className="source-settings__row">
            <dt>{term}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
      <CopyButton
        label="FTP-Einstellungen"
        visibleLabel="Einstellungen kopieren"
        text={settings.map(([term, value]) => `${term}: ${value}`).join('\n')}
      />

      <h4 className="source-subtitle">Probe mit curl</h4>
      <Copyable label="curl-Befehl für FTP" text={curl} />
      {ftp.tls && (
        <p className="muted source-note">
          Ist das Zertifikat des Portals selbst ausgestellt, braucht curl zusätzlich <code>-k</code>.
        </p>
      )}
      <LastUpload stored={stored} reloading={reloading} onReload={onReload} />
    </section>
  );
}

/** The camera, or a script, PUTs or POSTs its pictures to the portal with its own secret. */
function PushSource({ webcam, stored, onStored, onConfirm, reloading, onReload }: PushedSourceProps) {
  const api = useAdminApi();
  const headingId = useId();
  const secret = useShownOnce(async () => {
    const made = await api.newPushSecret(webcam.id);
    onStored({ ...stored, push: { path: made.path, secretSet: true } });
    return made.secret;
  }, onConfirm);
  const url = `${window.location.origin}${stored.push.path}`;
  const shownSecret = secret.made ?? '<Geheimnis>';
  const generateLabel = stored.push.secretSet ? 'Neues Geheimnis erzeugen' : 'Geheimnis erzeugen';

  return (
    <section className="dialog-section source-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="dialog-section-title">
        Upload per HTTP
      </h3>
      <p className="muted">
        PUT oder POST an diese Adresse, das Bild als Inhalt (JPEG, PNG oder WebP) oder im Formularfeld «file»; das
        Geheimnis als Bearer-Token oder als Passwort zum Benutzer «{webcam.name}».
      </p>
      <div className="source-block">
        <p className="source-block__label">Adresse für Uploads</p>
        <Copyable label="Adresse für Uploads" text={url} />
      </div>
      <Secret
        what="Geheimnis"
        value={secret.made}
        exists={stored.push.secretSet}
        missing="Noch kein Geheimnis: ohne eines kann die Kamera nicht hochladen."
      />
      <FormActions>
        <button
          ref={secret.button}
          type="button"
          className="button--secondary"
          aria-disabled={secret.action.busy}
          onClick={() =>
            secret.request(stored.push.secretSet, {
              title: `Neues Geheimnis für ${webcam.name}`,
              text: 'Das bisherige Geheimnis gilt danach nicht mehr: die Kamera lädt erst wieder hoch, wenn das neue in ihr eingetragen ist.',
              confirmLabel: 'Neues Geheimnis erzeugen',
              failure: 'Das Geheimnis konnte nicht erzeugt werden.',
            })
          }
        >
          {generateLabel}
        </button>
      </FormActions>
      <ActionFailure action={secret.action} />

      <h4 className="source-subtitle">Probe mit curl</h4>
      <Copyable
        label="curl-Befehl mit Bearer-Token"
        text={`curl -T bild.jpg -H "Content-Type: image/jpeg" -H "Authorization: Bearer ${shownSecret}" ${url}`}
      />
      <Copyable
        label="curl-Befehl mit Formular"
        text={`curl -F file=@bild.jpg -u ${webcam.name}:${shownSecret} ${url}`}
      />
      <LastUpload stored={stored} reloading={reloading} onReload={onReload} />
    </section>
  );
}

/** A password or secret: shown the one time it is made, afterwards only whether there is one. */
function Secret({
  what,
  value,
  exists,
  missing,
}: {
  what: string;
  value: string | null;
  exists: boolean;
  missing: string;
}) {
  return (
    <div className="source-secret">
      <p role="status">
        {value
          ? `Neues ${what}, nur jetzt sichtbar: bitte gleich in der Kamera eintragen.`
          : exists
            ? `Ein ${what} ist gesetzt. Es wurde nur beim Erzeugen angezeigt.`
            : missing}
      </p>
      {value && <Copyable label={what} text={value} />}
    </div>
  );
}

function LastUpload({
  stored,
  reloading,
  onReload,
}: {
  stored: CameraSource;
  reloading: boolean;
  onReload: () => void;
}) {
  return (
    <div className="source-last-upload">
      <p role="status">{lastUploadText(stored.lastUpload)}</p>
      <button
        type="button"
        className="button--secondary button--small"
        aria-busy={reloading}
        aria-disabled={reloading}
        onClick={() => {
          if (!reloading) onReload();
        }}
      >
        Aktualisieren
      </button>
    </div>
  );
}

/** Text to copy: in a <code>, with a button that copies it. */
function Copyable({ label, text }: { label: string; text: string }) {
  const code = useRef<HTMLElement>(null);
  return (
    <div className="copyable">
      <code ref={code}>{text}</code>
      <CopyButton label={label} text={text} select={() => code.current} />
    </div>
  );
}

function CopyButton({
  label,
  visibleLabel = 'Kopieren',
  text,
  select,
}: {
  label: string;
  visibleLabel?: string;
  text: string;
  select?: () => HTMLElement | null;
}): ReactNode {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      // No clipboard (plain http, no permission): mark the text for copying by hand.
      const element = select?.();
      if (element) window.getSelection()?.selectAllChildren(element);
      setCopied('failed');
    }
  }
  return (
    <span className="copy-button">
      <button
        type="button"
        className="button--secondary button--small"
        aria-label={`${label} kopieren`}
        onClick={() => void copy()}
      >
        {visibleLabel}
      </button>
      <span role="status" className="muted copy-button__status">
        {copied === 'yes' ? 'Kopiert.' : copied === 'failed' ? 'Bitte mit Ctrl+C kopieren.' : ''}
      </span>
    </span>
  );
}
