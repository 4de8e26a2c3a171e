import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { nowOf } from '../../capture/capture-tick.ts';
import { ingestPicture } from '../../capture/picture-ingest.ts';
import type { ImagingOptions } from '../../options.ts';
import { type FtpIngest, startFtpIngest } from '../../push/ftp-ingest.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ftpIngestPort(): number | null;
  }
}

/** As a picture uploaded by hand. */
const FTP_PICTURE_BYTES = 25 * 1024 * 1024;

/**
 * The FTP/FTPS server cameras push their pictures to, when configured (`options.ftp`): each camera logs in with
 * its own account, and each picture is a capture like a fetched one.
 */
export default fp(
  async (app: FastifyInstance, options: ImagingOptions) => {
    let ingest: FtpIngest | null = null;
    // The port it listens on once started (FTP_PORT 0 takes a free one): for the log and tests.
    app.decorate('ftpIngestPort', () => ingest?.port ?? null);
    const settings = options.ftp;
    if (!settings) return;
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
          const webcamId = await app.cameraSources.ftpAccount(user, password);
          const camera = webcamId === null ? undefined : await app.cameraDirectory.byId(webcamId);
          return camera ? { webcamId: camera.webcamId, camera: camera.name } : null;
        },
        async onPicture(account, bytes, fileName) {
          const camera = await app.cameraDirectory.byId(account.webcamId);
          if (!camera) throw new Error(`Camera ${account.camera} is gone`);
          const result = await ingestPicture(app.captureContext, camera, bytes, nowOf(app.captureContext));
          if (result.outcome === 'captured') {
            await app.cameraSources.recordUpload(camera.webcamId, result.image.name, 'ftp');
            return;
          }
          const why =
            result.outcome === 'refused' ? result.message : result.outcome === 'failed' ? result.error : 'busy';
          app.log.warn({ camera: camera.name, file: fileName, reason: why }, 'FTP picture not taken');
          throw new Error(why);
        },
      });
    app.addHook('onClose', async () => {
      await ingest?.close();
    });
  },
  { name: 'ftp-push', dependencies: ['camera-sources', 'capture-pipeline'] },
);
