import type { FetchLimits } from './capture/camera-fetch.ts';
import type { ImageStore } from './store/image-store.ts';

export interface ImagingOptions {
  /** Folder of the image files (the default store)… */
  storeDir?: string;
  /** …or another store every replica reaches, e.g. the NATS object store. */
  imageStore?: ImageStore;
  /** Memory for recently served pictures (default 32 MiB). */
  recentPicturesBytes?: number;
  /** Name of this replica on the job records. */
  replicaId?: string;
  /** Run the capture schedules (off in tests that drive captures themselves). */
  schedule?: boolean;
  /** Render the pictures of demo cameras (URL path under `DEMO_SOURCE_PATH`) here instead of fetching them. */
  demoSource?: boolean;
  /** Give an empty demo camera its current picture and this many minutes of history at once (default 60). */
  demoBackfillMinutes?: number;
  fetchLimits?: FetchLimits;
  /**
   * Signs picture links above the public level; every replica needs the same secret (PICTURE_LINK_SECRET).
   * `baseUrl`: where the pictures are fetched, e.g. a cookie-less host (PICTURE_BASE_URL); this host by default.
   * `windowSeconds`: a signed link lives one to two of these (600 by default; tests shorten it).
   */
  pictureLinks?: { secret?: string; baseUrl?: string; windowSeconds?: number };
  /** Memory for pictures with layers drawn in (default 64 MiB). */
  composedCacheBytes?: number;
  /** A running capture renews its claim this often (default 5 s)… */
  heartbeatMs?: number;
  /** …and another replica takes a claim over when its heartbeat is older than this (default 20 s). */
  takeoverAfterMs?: number;
  /** Folder of the deep-zoom tiles (default `<storeDir>/.zoom`, or one in the system's temporary folder). */
  zoomTilesDir?: string;
  /** Today's time-lapse clips are made again at most this often (default 10 minutes). */
  timelapseTodayMinutes?: number;
  /** Mail the operator when a camera goes offline and when it is back, checked every minute with `schedule` (default on). */
  healthMails?: boolean;
  /** The service's clock: the health check, when a capture starts, "capture now", a push's arrival (tests move it). */
  clock?: () => Date;
  /**
   * How many times faster than real time `clock` runs (tests only, CAPTURE_CLOCK_SCALE; default 1): the
   * schedules then fire on its minutes. Heartbeats and takeovers stay in real time.
   */
  clockScale?: number;
  /** Days every capture is kept (default 14)… */
  retentionDays?: number;
  /** …then the best of each hour, until this many days (default 365); the best of each day forever. */
  archiveDays?: number;
  /** Seals the cameras' login passwords at rest (CAMERA_SECRET_KEY); the same on every replica, kept across restarts. */
  cameraSecretKey?: string;
  /**
   * The FTP ingest for cameras that push (FTP_PORT, FTP_PASSIVE_PORTS, FTP_PUBLIC_HOST, FTP_TLS_CERT/KEY);
   * without it no FTP server runs.
   */
  ftp?: {
    host?: string;
    port: number;
    passivePorts: { min: number; max: number };
    /** The address cameras are told to connect to (PASV), and the dialog shows; this host's by default. */
    publicHost?: string;
    tls?: { key: string | Buffer; cert: string | Buffer };
    /** Refuse logins and data without TLS (FTP_REQUIRE_TLS; needs `tls`). */
    requireTls?: boolean;
  };
}
