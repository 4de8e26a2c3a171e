import type { Migration } from 'kysely/migration';
import * as cameras from './2026-11-22-01-cameras.ts';
import * as captures from './2026-11-22-02-captures.ts';
import * as jobRuns from './2026-11-22-03-job-runs.ts';
import * as cameraAccess from './2026-11-22-04-camera-access.ts';
import * as paused from './2026-11-22-05-paused.ts';
import * as layers from './2026-11-22-06-layers.ts';
import * as heartbeat from './2026-11-22-07-heartbeat.ts';
import * as outbox from './2026-11-25-01-outbox.ts';
import * as captureScore from './2026-11-25-11-capture-score.ts';
import * as timelapses from './2026-11-25-10-timelapses.ts';
import * as outboxRequestId from './2026-11-27-01-outbox-request-id.ts';
import * as cameraSources from './2026-11-27-02-camera-sources.ts';
import * as cameraHealthNotices from './2026-11-27-03-camera-health-notices.ts';
import * as embedViews from './2026-11-27-04-embed-views.ts';

export const migrations: Record<string, Migration> = {
  '2026-11-22-01-cameras': cameras,
  '2026-11-22-02-captures': captures,
  '2026-11-22-03-job-runs': jobRuns,
  '2026-11-22-04-camera-access': cameraAccess,
  '2026-11-22-05-paused': paused,
  '2026-11-22-06-layers': layers,
  '2026-11-22-07-heartbeat': heartbeat,
  '2026-11-25-01-outbox': outbox,
  '2026-11-25-11-capture-score': captureScore,
  '2026-11-25-10-timelapses': timelapses,
  '2026-11-27-01-outbox-request-id': outboxRequestId,
  '2026-11-27-02-camera-sources': cameraSources,
  '2026-11-27-03-camera-health-notices': cameraHealthNotices,
  '2026-11-27-04-embed-views': embedViews,
};
