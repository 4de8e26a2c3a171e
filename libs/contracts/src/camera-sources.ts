/** How a camera's pictures reach the portal (svc-imaging keeps this, with the camera's login and push accounts). */
export const CAMERA_SOURCE_KINDS = ['http', 'stream', 'ftp', 'push'] as const;
export type CameraSourceKind = (typeof CAMERA_SOURCE_KINDS)[number];

/** Fetched by the portal on the camera's schedule; the others push their pictures to it. */
export const PULLED_SOURCE_KINDS: readonly CameraSourceKind[] = ['http', 'stream'];

export const STREAM_TRANSPORTS = ['tcp', 'udp'] as const;
export type StreamTransport = (typeof STREAM_TRANSPORTS)[number];

/** A camera's source as an administrator sees it: no password or secret is ever sent back, only whether one is set. */
export interface CameraSource {
  webcamId: number;
  kind: CameraSourceKind;
  /** The camera's login for http and stream sources. */
  username: string;
  passwordSet: boolean;
  transport: StreamTransport;
  /** The FTP account the camera uploads with (ftp sources); its password is shown once, when made. Host null: the portal's own. */
  ftp: { user: string; host: string | null; port: number; tls: boolean; passwordSet: boolean };
  /** Where the camera PUTs or POSTs its pictures (push sources), a path on the portal; its secret is shown once, when made. */
  push: { path: string; secretSet: boolean };
  /** The last picture pushed by FTP or HTTP, with when it arrived. */
  lastUpload: { name: string; at: string; via: 'ftp' | 'push' } | null;
}

/** What the dialog sends: a password of `undefined` keeps the stored one, `''` removes it. */
export interface CameraSourceUpdate {
  kind: CameraSourceKind;
  username?: string;
  password?: string;
  transport?: StreamTransport;
}

/** Where cameras push pictures by HTTP: authenticated by their own secret, never by a cookie. */
export const CAMERA_PUSH_PATH_PREFIX = '/api/Image/Push/camera/';

/** What "Verbindung testen" found: the picture with its size and time, or why there is none. */
export type ConnectionTestResult =
  | { ok: true; width: number; height: number; bytes: number; ms: number; preview: string }
  | { ok: false; ms: number; reason: ConnectionFailure; message: string };

export type ConnectionFailure =
  | 'dns'
  | 'refused'
  | 'timeout'
  | 'login'
  | 'not-found'
  | 'not-a-picture'
  | 'too-large'
  | 'no-frame'
  | 'other';
