import { CAMERA_PUSH_PATH_PREFIX, type CameraSource, type CameraSourceUpdate } from '@lakecams/contracts';
import type { Kysely } from 'kysely';
import type { CameraLogin } from '../capture/camera-login.ts';
import {
  createSecretBox,
  hashCameraSecret,
  matchesCameraSecret,
  newCameraSecret,
  type SecretBox,
} from '../capture/camera-secrets.ts';
import type { CameraRow, CameraSourceRow, Database } from '../database.ts';

/** The FTP ingest's control port when FTP_PORT is not set (unprivileged: no root needed). */
export const DEFAULT_FTP_PORT = 2121;

/** Where cameras reach the FTP ingest, as the dialog tells the administrator. */
export interface FtpEndpoint {
  host: string | null;
  port: number;
  tls: boolean;
}

/** Raised when a password is to be kept or opened but the service has no key (or another one) for it. */
export class NoSecretKeyError extends Error {}

const DEFAULT_SOURCE = (webcamId: number): CameraSourceRow => ({
  webcamId,
  kind: 'http',
  loginUser: '',
  loginPasswordSealed: null,
  transport: 'tcp',
  ftpUser: null,
  ftpPasswordHash: null,
  pushSecretHash: null,
  lastUploadName: null,
  lastUploadAt: null,
  lastUploadVia: null,
  updatedAt: new Date(0),
});

/** The `camera_sources` table: how each camera delivers its pictures, its logins sealed or hashed. */
export function createCameraSourceRepository(db: Kysely<Database>, secretKey: string | undefined, ftp: FtpEndpoint) {
  const box: SecretBox | null = secretKey ? createSecretBox(secretKey) : null;

  async function of(webcamId: number): Promise<CameraSourceRow> {
    const row = await db.selectFrom('cameraSources').selectAll().where('webcamId', '=', webcamId).executeTakeFirst();
    return row ?? DEFAULT_SOURCE(webcamId);
  }

  async function save(webcamId: number, values: Partial<Omit<CameraSourceRow, 'webcamId' | 'updatedAt'>>) {
    return db
      .insertInto('cameraSources')
      .values({ webcamId, ...values })
      .onConflict((oc) => oc.column('webcamId').doUpdateSet({ ...values, updatedAt: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  return {
    of,
    /** What the admin dialog shows: never a password or secret, only whether one is set. */
    view(row: CameraSourceRow, camera: Pick<CameraRow, 'name'>): CameraSource {
      return {
        webcamId: row.webcamId,
        kind: row.kind,
        username: row.loginUser,
        passwordSet: row.loginPasswordSealed !== null,
        transport: row.transport,
        ftp: { user: row.ftpUser ?? camera.name, ...ftp, passwordSet: row.ftpPasswordHash !== null },
        push: { path: `${CAMERA_PUSH_PATH_PREFIX}${camera.name}.jpg`, secretSet: row.pushSecretHash !== null },
        lastUpload:
          row.lastUploadName && row.lastUploadAt && row.lastUploadVia
            ? { name: row.lastUploadName, at: row.lastUploadAt.toISOString(), via: row.lastUploadVia }
            : null,
      };
    },
    async update(webcamId: number, update: CameraSourceUpdate): Promise<CameraSourceRow> {
      const password =
        update.password === undefined
          ? {}
          : update.password === ''
            ? { loginPasswordSealed: null }
            : { loginPasswordSealed: sealed(update.password) };
      return save(webcamId, {
        kind: update.kind,
        ...(update.username !== undefined ? { loginUser: update.username } : {}),
        ...(update.transport ? { transport: update.transport } : {}),
        ...password,
      });
    },
    /** The camera's login for fetching, opened from its seal; undefined without a user. */
    login(row: CameraSourceRow): CameraLogin | undefined {
      if (!row.loginUser) return undefined;
      if (!row.loginPasswordSealed) return { username: row.loginUser, password: '' };
      try {
        if (box) return { username: row.loginUser, password: box.open(row.loginPasswordSealed) };
      } catch {
        // Sealed under another key: said below, as without a key.
      }
      throw new NoSecretKeyError(
        "The camera's stored password cannot be opened with this portal's CAMERA_SECRET_KEY; enter it again",
      );
    },
    /** A new FTP password for the camera's account (its name), shown once; the old one stops working. */
    async rotateFtpPassword(webcamId: number, camera: string): Promise<{ user: string; password: string }> {
      const password = newCameraSecret();
      await save(webcamId, { ftpUser: camera, ftpPasswordHash: hashCameraSecret(password) });
      return { user: camera, password };
    },
    /** A new secret for HTTP uploads, shown once; the old one stops working. */
    async rotatePushSecret(webcamId: number): Promise<string> {
      const secret = newCameraSecret();
      await save(webcamId, { pushSecretHash: hashCameraSecret(secret) });
      return secret;
    },
    /** The camera whose FTP account this is, when the password fits and it takes FTP uploads. */
    async ftpAccount(user: string, password: string): Promise<number | null> {
      const row = await db.selectFrom('cameraSources').selectAll().where('ftpUser', '=', user).executeTakeFirst();
      return row?.kind === 'ftp' && matchesCameraSecret(password, row.ftpPasswordHash) ? row.webcamId : null;
    },
    /** Whether `secret` opens HTTP uploads for the camera. */
    async acceptsPush(webcamId: number, secret: string): Promise<boolean> {
      const row = await of(webcamId);
      return row.kind === 'push' && matchesCameraSecret(secret, row.pushSecretHash);
    },
    async recordUpload(webcamId: number, name: string, via: 'ftp' | 'push'): Promise<void> {
      await save(webcamId, { lastUploadName: name, lastUploadAt: new Date(), lastUploadVia: via });
    },
  };

  function sealed(password: string): string {
    if (!box) throw new NoSecretKeyError('This portal has no CAMERA_SECRET_KEY to keep camera passwords with');
    return box.seal(password);
  }
}
export type CameraSources = ReturnType<typeof createCameraSourceRepository>;
