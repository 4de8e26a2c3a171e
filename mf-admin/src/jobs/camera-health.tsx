import { formatZurichDateTime, OFFLINE_REASON_LABELS } from '@lakecams/contracts';
import { useSessionClient } from '@lakecams/session';
import { useEffect, useState } from 'react';
import { type CameraHealth, jobsApi } from '../api/jobs-api.ts';
import './camera-health.css';

const LABELS = { late: 'Verspätet', failing: 'Fehler', offline: 'Offline' } as const;
const REASONS: Readonly<Record<string, string>> = OFFLINE_REASON_LABELS;

/** "OK", or "Verspätet seit 27.11.2026, 12:05" and the like. */
export function healthLabel(health: CameraHealth): string {
  if (health.state === 'ok') return 'OK';
  const since = health.since ? ` seit ${formatZurichDateTime(new Date(health.since))}` : '';
  return `${LABELS[health.state]}${since}`;
}

/** Why, as a tooltip: the offline rule or the latest error. */
const reasonText = (health: CameraHealth) => (health.reason ? (REASONS[health.reason] ?? health.reason) : undefined);

export function HealthBadge({ health }: { health: CameraHealth | undefined }) {
  if (!health) return <span className="health-badge health-badge--unknown">–</span>;
  return (
    <span className={`health-badge health-badge--${health.state}`} title={reasonText(health)}>
      {healthLabel(health)}
    </span>
  );
}

/** Every camera's health by id, read once; a failed read leaves the badges empty, the page works on. */
export function useCamerasHealth(): Map<number, CameraHealth> {
  const { api } = useSessionClient();
  const [health, setHealth] = useState(new Map<number, CameraHealth>());
  useEffect(() => {
    let current = true;
    jobsApi(api)
      .health()
      .then((cameras) => {
        if (current) setHealth(new Map(cameras.map((camera) => [camera.webcamId, camera.health])));
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [api]);
  return health;
}
