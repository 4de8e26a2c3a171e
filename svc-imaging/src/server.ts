import { exitOnConfigError, runService } from '@lakecams/service-kit';
import { imagingService } from './app.ts';
import { checkImageStoreSettings, imagingOptionsFromConfig, loadImagingConfig } from './config.ts';
import { createNatsImageStore } from './store/nats-image-store.ts';

const config = exitOnConfigError(() => checkImageStoreSettings(loadImagingConfig()));

const imageStore =
  config.IMAGE_STORE === 'nats'
    ? await createNatsImageStore({
        servers: config.NATS_URL as string,
        namespace: config.BUS_NAMESPACE,
        replicas: config.NATS_STREAM_REPLICAS,
      })
    : undefined;

if (!config.PICTURE_LINK_SECRET)
  console.warn('PICTURE_LINK_SECRET is not set: signed picture links are valid on this replica only');

await runService(imagingService, {
  ...imagingOptionsFromConfig(config),
  ...(imageStore ? { imageStore } : {}),
});
