import { type ApiClient, ApiError } from '@lakecams/session';
import { withQuery } from './admin-api.ts';

/** A camera's health as svc-imaging judges it (`/api/Jobs/health`, `/api/Jobs/state`). */
export interface CameraHealth {
  state: 'ok' | 'late' | 'failing' | 'offline';
  since: string | null;
  /** offline: 'frozen' or 'silent'; failing: the latest error. */
  reason: string | null;
}

export interface CameraHealthItem {
  webcamId: number;
  name: string;
  paused: boolean;
  health: CameraHealth;
}

/**
 * The job dashboard's frame document, served by svc-imaging to an administrator's access cookie only (a frame sends
 * no bearer header); it renders this remote's dashboard page (src/jobs/frame.tsx) and nothing else.
 */
export const JOB_DASHBOARD_PATH = '/api/Jobs/dashboard';

/** The answers of `/api/Jobs/state` and `/api/Jobs/timelapses` (svc-imaging declares their schemas). */
export type RunStatus = 'running' | 'done' | 'failed';

export interface LastRun {
  /** The tick, `yyyyMMddHHmm`. */
  name: string;
  status: RunStatus;
  startedAt: string;
  durationMs: number | null;
  error: string | null;
  attempt: number;
  claimedBy: string;
}

export interface CameraJobs {
  webcamId: number;
  name: string;
  intervalMin: number;
  paused: boolean;
  /** frozen: its last two pictures are equal; silent: none arrived within three intervals. */
  offline: 'frozen' | 'silent' | null;
  /** ok, late, failing or offline, since when. */
  health: CameraHealth;
  nextRun: string | null;
  lastRun: LastRun | null;
}

export interface CaptureFailure {
  camera: string;
  tick: string;
  startedAt: string;
  error: string | null;
  attempt: number;
}

export interface PruneRun {
  /** The day, `yyyyMMdd`. */
  tick: string;
  status: RunStatus;
  startedAt: string;
  durationMs: number | null;
  error: string | null;
  detail: unknown;
}

export interface JobState {
  generatedAt: string;
  replica: string;
  cameras: CameraJobs[];
  failures: CaptureFailure[];
  prunes: PruneRun[];
}

export interface TimelapseJob {
  camera: string;
  /** `yyyyMMdd` */
  day: string;
  level: string;
  status: string;
  /** Percent of the frames encoded. */
  progress: number;
  frames: number;
  startedAt: string;
  durationMs: number | null;
  bytes: number | null;
  claimedBy: string;
  error: string | null;
}

export type CameraAction = 'retry' | 'pause' | 'resume';

export type CaptureResult = { outcome: 'captured' } | { outcome: 'failed'; error: string };

/** The job dashboard's calls, and the cameras' health on camera administration (svc-imaging, Admin). */
export function jobsApi(api: ApiClient) {
  return {
    health: () => api.json<CameraHealthItem[]>('/api/Jobs/health'),
    state: () => api.json<JobState>('/api/Jobs/state'),
    timelapses: () => api.json<TimelapseJob[]>('/api/Jobs/timelapses'),
    /** Capture now; a capture that failed is an answer too, with its error. */
    retry: (webcamId: number) =>
      api.json<CaptureResult>(withQuery('/api/Jobs/retry', { webcamId }), { method: 'POST' }),
    async setPaused(webcamId: number, paused: boolean): Promise<void> {
      const path = withQuery(`/api/Jobs/${paused ? 'pause' : 'resume'}`, { webcamId });
      if (!(await api.boolean(path, { method: 'POST' }))) throw new ApiError(200, path);
    },
  };
}

export type JobsApi = ReturnType<typeof jobsApi>;
