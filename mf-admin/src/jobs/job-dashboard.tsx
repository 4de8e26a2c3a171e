import { OFFLINE_REASON_LABELS } from '@lakecams/contracts';
import { type ApiClient, ApiError } from '@lakecams/session';
import { type Column, DataTable, failureMessage, Notice } from '@lakecams/ui-kit';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  type CameraJobs,
  type CaptureFailure,
  type JobState,
  type JobsApi,
  jobsApi,
  type PruneRun,
  type TimelapseJob,
} from '../api/jobs-api.ts';
import { HealthBadge } from './camera-health.tsx';
import './job-dashboard.css';

/** How often the dashboard reads the state again. */
export const REFRESH_MS = 5_000;

const dateTime = new Intl.DateTimeFormat('de-CH', { dateStyle: 'short', timeStyle: 'medium' });
export const timeText = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '–');
/** `20261125` → `25.11.2026` */
export const dayText = (day: string) => `${day.slice(6, 8)}.${day.slice(4, 6)}.${day.slice(0, 4)}`;
const millisText = (ms: number | null) => (ms === null ? '–' : `${ms} ms`);
const secondsText = (ms: number | null) => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);
export const sizeText = (bytes: number | null) =>
  bytes === null ? '–' : bytes < 1e6 ? `${Math.ceil(bytes / 1e3)} kB` : `${(bytes / 1e6).toFixed(2)} MB`;

type CameraStatus = 'paused' | 'offline' | 'waiting' | 'running' | 'done' | 'failed';

const RUN_LABELS: Record<string, string> = { running: 'Läuft', done: 'OK', failed: 'Fehler' };

function cameraStatus(camera: CameraJobs): { status: CameraStatus; label: string } {
  if (camera.paused) return { status: 'paused', label: 'Pausiert' };
  if (camera.offline) return { status: 'offline', label: `Offline (${OFFLINE_REASON_LABELS[camera.offline]})` };
  if (!camera.lastRun) return { status: 'waiting', label: 'Wartet' };
  return { status: camera.lastRun.status, label: RUN_LABELS[camera.lastRun.status] ?? camera.lastRun.status };
}

function Status({ status, label, error }: { status: string; label: string; error?: string | null | undefined }) {
  return (
    // One element: the phone layout sets it beside its label.
    <div>
      <span className={`job-status job-status--${status}`}>{label}</span>
      {error && <div className="job-error">{error}</div>}
    </div>
  );
}

/** What a finished pruning run removed. */
export function pruneResult(run: PruneRun): string {
  const detail = run.detail as { captures?: unknown; days?: unknown } | null;
  if (typeof detail?.captures === 'number' && typeof detail.days === 'number')
    return `${detail.captures} Aufnahmen entfernt, ${detail.days} Tage ausgedünnt`;
  if (run.error) return run.error;
  return detail ? JSON.stringify(detail) : '–';
}

const FAILURE_COLUMNS: readonly Column<CaptureFailure>[] = [
  { label: 'Zeit', cell: (failure) => timeText(failure.startedAt) },
  { label: 'Kamera', cell: (failure) => failure.camera },
  { label: 'Versuch', cell: (failure) => failure.attempt },
  { label: 'Fehler', cell: (failure) => <span className="job-error">{failure.error ?? '–'}</span> },
];

const TIMELAPSE_COLUMNS: readonly Column<TimelapseJob>[] = [
  { label: 'Kamera', cell: (job) => job.camera },
  { label: 'Tag', cell: (job) => dayText(job.day) },
  { label: 'Stufe', cell: (job) => job.level },
  {
    label: 'Status',
    cell: (job) => <Status status={job.status} label={RUN_LABELS[job.status] ?? job.status} error={job.error} />,
  },
  {
    label: 'Fortschritt',
    cell: (job) => (
      <span className="job-progress">
        <progress max={100} value={job.progress} aria-label={`Zeitraffer ${job.camera}`} />
        {` ${job.progress} % von ${job.frames} Bildern`}
      </span>
    ),
  },
  { label: 'Dauer', cell: (job) => secondsText(job.durationMs) },
  { label: 'Grösse', cell: (job) => sizeText(job.bytes) },
];

const PRUNE_COLUMNS: readonly Column<PruneRun>[] = [
  { label: 'Tag', cell: (run) => dayText(run.tick) },
  { label: 'Status', cell: (run) => <Status status={run.status} label={RUN_LABELS[run.status] ?? run.status} /> },
  { label: 'Dauer', cell: (run) => millisText(run.durationMs) },
  { label: 'Ergebnis', cell: (run) => pruneResult(run) },
];

/** Why the state cannot be shown, in the administrator's words. */
function refusalOf(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'Diese Seite ist Administratoren vorbehalten.';
  if (error instanceof ApiError && error.status === 401)
    return 'Bitte melden Sie sich als Administrator an und laden Sie die Seite neu.';
  return failureMessage(error, 'Der Stand der Jobs ist gerade nicht verfügbar.');
}

interface Loaded {
  state?: JobState;
  timelapses?: TimelapseJob[];
  /** Why the last read failed; the last state read stays shown. */
  problem: string | null;
}

/** The state, read now and every `refreshMs`; an answer older than one already shown is dropped. */
function useJobState(jobs: JobsApi, refreshMs: number) {
  const [loaded, setLoaded] = useState<Loaded>({ problem: null });
  const sent = useRef(0);
  const shown = useRef(0);
  const refresh = useCallback(async () => {
    const round = ++sent.current;
    const [state, timelapses] = await Promise.allSettled([jobs.state(), jobs.timelapses()]);
    if (round < shown.current) return;
    shown.current = round;
    setLoaded((current) => ({
      state: state.status === 'fulfilled' ? state.value : current.state,
      // The clips are a section of their own: when they cannot be read, the rest still shows.
      timelapses: timelapses.status === 'fulfilled' ? timelapses.value : current.timelapses,
      problem: state.status === 'rejected' ? refusalOf(state.reason) : null,
    }));
  }, [jobs]);
  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), refreshMs);
    return () => clearInterval(timer);
  }, [refresh, refreshMs]);
  return { ...loaded, refresh };
}

interface ActionResult {
  tone: 'success' | 'error';
  text: string;
}

/** A row's live region, there before any text so that screen readers announce what comes into it. */
function ActionResultText({ result }: { result: ActionResult | undefined }) {
  return (
    <p className={`job-action-result${result ? ` job-action-result--${result.tone}` : ''}`} role="status">
      {result?.text}
    </p>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="job-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * The background-job dashboard (shown in the frame of the `jobs` page, docs/product.md §6.6): every camera's
 * schedule, last and next run with capture now, pause and resume, the latest failures, time-lapse jobs and
 * pruning runs.
 */
export function JobDashboard({ api, refreshMs = REFRESH_MS }: { api: ApiClient; refreshMs?: number }) {
  const jobs = useMemo(() => jobsApi(api), [api]);
  const { state, timelapses, problem, refresh } = useJobState(jobs, refreshMs);
  // What an action came to, per camera: shown in that camera's row, where the administrator clicked.
  const [results, setResults] = useState<ReadonlyMap<number, ActionResult>>(new Map());
  const [acting, setActing] = useState<ReadonlySet<number>>(new Set());

  async function act(camera: CameraJobs, call: () => Promise<ActionResult | null>) {
    const show = (result: ActionResult | null) =>
      setResults((current) => {
        const next = new Map(current);
        if (result) next.set(camera.webcamId, result);
        else next.delete(camera.webcamId);
        return next;
      });
    setActing((current) => new Set(current).add(camera.webcamId));
    show(null);
    try {
      show(await call());
    } catch (error) {
      show({ tone: 'error', text: failureMessage(error, 'Die Aktion hat nicht geklappt.') });
    } finally {
      setActing((current) => {
        const next = new Set(current);
        next.delete(camera.webcamId);
        return next;
      });
      await refresh();
    }
  }
  const captureNow = (camera: CameraJobs) =>
    act(camera, async () => {
      const result = await jobs.retry(camera.webcamId);
      return result.outcome === 'failed'
        ? { tone: 'error', text: `Die Aufnahme von ${camera.name} hat nicht geklappt: ${result.error}` }
        : { tone: 'success', text: `Neues Bild von ${camera.name} aufgenommen.` };
    });
  const setPaused = (camera: CameraJobs, paused: boolean) =>
    act(camera, async () => {
      await jobs.setPaused(camera.webcamId, paused);
      return null;
    });

  const cameraColumns: readonly Column<CameraJobs>[] = [
    { label: 'Kamera', cell: (camera) => camera.name },
    { label: 'Intervall', cell: (camera) => `${camera.intervalMin} min` },
    {
      label: 'Letzter Lauf',
      cell: ({ lastRun }) =>
        lastRun ? (
          <div>
            {timeText(lastRun.startedAt)}
            <div className="job-run-meta">
              Versuch {lastRun.attempt} · {lastRun.claimedBy}
            </div>
          </div>
        ) : (
          '–'
        ),
    },
    { label: 'Dauer', cell: (camera) => millisText(camera.lastRun?.durationMs ?? null) },
    { label: 'Status', cell: (camera) => <Status {...cameraStatus(camera)} error={camera.lastRun?.error} /> },
    { label: 'Zustand', cell: (camera) => <HealthBadge health={camera.health} /> },
    { label: 'Nächster Lauf', cell: (camera) => (camera.paused ? '–' : timeText(camera.nextRun)) },
    {
      label: 'Aktionen',
      actions: true,
      cell: (camera) => (
        <>
          <div className="row-actions">
            <button
              type="button"
              className="button--small"
              aria-label={`Jetzt aufnehmen ${camera.name}`}
              disabled={acting.has(camera.webcamId)}
              onClick={() => void captureNow(camera)}
            >
              Jetzt aufnehmen
            </button>
            <button
              type="button"
              className="button--small button--secondary"
              aria-label={`${camera.paused ? 'Fortsetzen' : 'Pausieren'} ${camera.name}`}
              disabled={acting.has(camera.webcamId)}
              onClick={() => void setPaused(camera, !camera.paused)}
            >
              {camera.paused ? 'Fortsetzen' : 'Pausieren'}
            </button>
          </div>
          <ActionResultText result={results.get(camera.webcamId)} />
        </>
      ),
    },
  ];

  return (
    <div className="job-dashboard">
      <h1>Aufnahme-Jobs</h1>
      <p className="job-dashboard__meta">
        {state
          ? `${state.cameras.length} Kameras · Stand ${timeText(state.generatedAt)}`
          : problem
            ? ''
            : 'Wird geladen …'}
      </p>
      {problem && (
        <Notice tone="error">
          <p>{problem}</p>
        </Notice>
      )}
      {state && (
        <>
          <Section title="Kameras">
            <DataTable
              caption="Zeitplan, letzter und nächster Lauf jeder Kamera"
              columns={cameraColumns}
              rows={state.cameras}
              rowKey={(camera) => String(camera.webcamId)}
            />
          </Section>
          <Section title="Letzte Fehler">
            <DataTable
              caption="Die letzten fehlgeschlagenen Aufnahmen, neueste zuerst"
              columns={FAILURE_COLUMNS}
              rows={state.failures}
              rowKey={(failure) => `${failure.camera}/${failure.tick}/${failure.attempt}`}
              empty={<p className="muted">Keine Fehler.</p>}
            />
          </Section>
          <Section title="Zeitraffer">
            <DataTable
              caption="Die zuletzt begonnenen Zeitraffer, laufende mit ihrem Fortschritt"
              columns={TIMELAPSE_COLUMNS}
              rows={timelapses ?? []}
              rowKey={(job) => `${job.camera}/${job.day}/${job.level}`}
              empty={<p className="muted">Noch kein Zeitraffer.</p>}
            />
          </Section>
          <Section title="Aufräumen">
            <DataTable
              caption="Die letzten Läufe, einer am Tag"
              columns={PRUNE_COLUMNS}
              rows={state.prunes}
              rowKey={(run) => `${run.tick}/${run.startedAt}`}
              empty={<p className="muted">Noch kein Lauf.</p>}
            />
          </Section>
        </>
      )}
    </div>
  );
}
