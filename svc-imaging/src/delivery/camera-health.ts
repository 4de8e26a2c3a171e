import { Gauge, type Registry } from '@lakecams/service-kit';
import type { CameraRow } from '../database.ts';
import type { CaptureQueryRepository } from '../repositories/capture-query-repository.ts';

import { SILENT_INTERVALS } from '../health/health-state.ts';

export type OfflineReason = 'frozen' | 'silent' | null;

/** Intervals without a successful capture after which a camera counts as offline (the health states share it). */
export { SILENT_INTERVALS };

type DoneCapture = { contentHash: string | null; startedAt: Date };

/** The rule, on a camera's latest two successful captures, newest first. */
function judge(camera: Pick<CameraRow, 'intervalMin'>, latest: DoneCapture[], now: Date): OfflineReason {
  const [last, previous] = latest;
  if (!last) return null;
  if (now.getTime() - last.startedAt.getTime() > SILENT_INTERVALS * camera.intervalMin * 60_000) return 'silent';
  if (previous && last.contentHash !== null && last.contentHash === previous.contentHash) return 'frozen';
  return null;
}

/**
 * A camera is offline when its last two pictures are the same bytes (frozen), or when it has not
 * delivered within three intervals (silent). A camera that never delivered is not judged yet.
 */
export async function offlineReason(
  captures: CaptureQueryRepository,
  camera: Pick<CameraRow, 'webcamId' | 'intervalMin'>,
  now = new Date(),
): Promise<OfflineReason> {
  return judge(camera, await captures.latestTwo(camera.webcamId), now);
}

export interface CameraHealth {
  name: string;
  intervalMin: number;
  paused: boolean;
  /** Start of the latest successful capture; null before the first. */
  lastCaptureAt: Date | null;
  offline: OfflineReason;
}

/** Every camera's health in one query (each camera's latest two captures through the partial index). */
export async function camerasHealth(captures: CaptureQueryRepository, now = new Date()): Promise<CameraHealth[]> {
  const rows = await captures.camerasWithLatestTwo();
  const cameras = new Map<number, Pick<CameraHealth, 'name' | 'intervalMin' | 'paused'> & { latest: DoneCapture[] }>();
  for (const row of rows) {
    let camera = cameras.get(row.webcamId);
    if (!camera) {
      camera = { name: row.name, intervalMin: row.intervalMin, paused: row.paused, latest: [] };
      cameras.set(row.webcamId, camera);
    }
    if (row.startedAt) camera.latest.push({ contentHash: row.contentHash, startedAt: row.startedAt });
  }
  return [...cameras.values()].map(({ latest, ...camera }) => ({
    ...camera,
    lastCaptureAt: latest[0]?.startedAt ?? null,
    offline: judge(camera, latest, now),
  }));
}

/**
 * Camera health read at scrape time, by the same rule as the job dashboard and the offline layers: per camera
 * the time of its latest picture and, while it is not paused, its interval (`time() - last > 3 × interval`
 * is "silent"); and how many cameras that are not paused are offline, by reason. Replicas read the same
 * table and report the same values. When the database cannot be read there are no samples.
 */
export function registerCameraHealthMetrics(registry: Registry, captures: CaptureQueryRepository): void {
  let reading: Promise<CameraHealth[] | null> | null = null;
  // The three gauges are collected in the same scrape: one query serves them.
  const read = () => {
    reading ??= camerasHealth(captures)
      .catch(() => null)
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  new Gauge({
    name: 'lakecams_camera_last_capture_timestamp_seconds',
    help: "Unix time at which the camera's latest successful capture started (cameras that delivered)",
    labelNames: ['camera'],
    registers: [registry],
    async collect() {
      const cameras = await read();
      this.reset();
      for (const camera of cameras ?? []) {
        if (camera.lastCaptureAt) this.set({ camera: camera.name }, camera.lastCaptureAt.getTime() / 1000);
      }
    },
  });
  new Gauge({
    name: 'lakecams_camera_capture_interval_seconds',
    help: 'Capture interval of each camera that is not paused',
    labelNames: ['camera'],
    registers: [registry],
    async collect() {
      const cameras = await read();
      this.reset();
      for (const camera of cameras ?? [])
        if (!camera.paused) this.set({ camera: camera.name }, camera.intervalMin * 60);
    },
  });
  new Gauge({
    name: 'lakecams_cameras_offline',
    help: `Cameras not paused whose last two pictures are equal (frozen) or that delivered none within ${SILENT_INTERVALS} intervals (silent)`,
    labelNames: ['reason'],
    registers: [registry],
    async collect() {
      const cameras = await read();
      this.reset();
      if (!cameras) return;
      for (const reason of ['frozen', 'silent'] as const) {
        this.set({ reason }, cameras.filter((camera) => !camera.paused && camera.offline === reason).length);
      }
    },
  });
}
