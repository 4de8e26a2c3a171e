import type { FastifyInstance } from 'fastify';
import type { ImagingOptions } from '../options.ts';
import { type FtpIngest, startFtpIngest } from '../push/ftp-ingest.ts';
import type { CameraDirectory } from '../repositories/camera-directory-repository.ts';
import type { CameraSources } from '../repositories/camera-source-repository.ts';
import { type CaptureContext, nowOf } from './capture-tick.ts';
import { ingestPicture } from './picture-ingest.ts';

/** As a picture uploaded by hand. */
const FTP_PICTURE_BYTES = 25 * 1024 * 1024;

export interface FtpPush {
  /** The port it listens on once started (FTP_PORT 0 takes a free one), null when it does not run: for the log and tests. */
  port(): number | null;
}

/**
 * The FTP/FTPS server cameras push their pictures to, when configured (`options.ftp`): each camera logs in with
 * its own account, and each picture is a capture like a fetched one. It starts when the app is ready.
 */
export function createFtpPush(
  app: FastifyInstance,
  options: ImagingOptions,
  {
    cameraSources,
    cameraDirectory,
    capture,
  }: { cameraSources: CameraSources; cameraDirectory: CameraDirectory; capture: CaptureContext },
): FtpPush {
  let ingest: FtpIngest | null = null;
  const ftp: FtpPush = { port: () => ingest?.port ?? null };
  const settings = options.ftp;
  if (!settings) return ftp;
  const startIngest = () =>
    startFtpIngest({
      host: settings.host ?? '0.0.0.0',
      port: settings.port,
      passivePorts: settings.passivePorts,
      publicHost: settings.publicHost ?? '',
      ...(settings.tls ? { tls: settings.tls } : {}),
      ...(settings.requireTls ? { requireTls: true } : {}),
      maxBytes: FTP_PICTURE_BYTES,
      log: app.log.child({ component: 'ftp' }),
      async authenticate(user, password) {
        const webcamId = await cameraSources.ftpAccount(user, password);
        const camera = webcamId === null ? undefined : await cameraDirectory.byId(webcamId);
        return camera ? { webcamId: camera.webcamId, camera: camera.name } : null;
      },
      async onPicture(account, bytes, fileName) {
        const camera = await cameraDirectory.byId(account.webcamId);
        if (!camera) throw new Error(`Camera ${account.camera} is gone`);
        const result = await ingestPicture(capture, camera, bytes, nowOf(capture));
        if (result.outcome === 'captured') {
          await cameraSources.recordUpload(camera.webcamId, result.image.name, 'ftp');
          return;
        }
        const why = result.outcome === 'refused' ? result.message : result.outcome === 'failed' ? result.error : 'busy';
        app.log.warn({ camera: camera.name, file: fileName, reason: why }, 'FTP picture not taken');
        throw new Error(why);
      },
    });
  app.addHook('onReady', async () => {
    try {
      ingest = await startIngest();
    } catch (err) {
      // A port taken by another program must not keep the portal from starting: pulled cameras still work.
      app.log.warn({ err, port: settings.port }, 'FTP ingest for pushing cameras could not start');
      return;
    }
    app.log.info({ port: ingest.port, tls: Boolean(settings.tls) }, 'FTP ingest for pushing cameras listens');
  });
  app.addHook('onClose', async () => {
    await ingest?.close();
  });
  return ftp;
}
