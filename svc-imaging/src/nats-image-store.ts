import type { Quality } from '@lakecams/contracts';
import { Objm, StorageType } from '@nats-io/obj';
import { connect, nanos } from '@nats-io/transport-node';
import { type PictureEncoding, variantFiles, variantSuffix } from './capture/formats.ts';
import { checkedNames, type ImageStore } from './image-store.ts';

export interface NatsImageStoreOptions {
  servers: string;
  /** Keeps several portals apart on one NATS server (as `BUS_NAMESPACE` does for the bus). */
  namespace?: string;
  /** Pictures expire this many days after they were stored (a day more than the retention). */
  retentionDays: number;
  /** Copies in a NATS cluster. */
  replicas?: number;
}

/**
 * Pictures in a NATS JetStream object store, reachable by every svc-imaging replica on every host.
 * Objects are `<camera>/<yyyyMMddHHmm>-<QUALITY>.<jpg|avif|webp>`; the bucket's TTL removes them after the
 * retention, so pruning has nothing left to delete and a removed camera's pictures simply expire.
 */
export async function createNatsImageStore(options: NatsImageStoreOptions): Promise<ImageStore> {
  const bucket = options.namespace ? `lakecams_images_${options.namespace}` : 'lakecams_images';
  const nc = await connect({
    servers: options.servers.split(',').map((server) => server.trim()),
    name: 'svc-imaging-images',
    maxReconnectAttempts: -1,
  });
  const objm = new Objm(nc);
  const ttlDays = options.retentionDays + 1;
  const store = await objm.create(bucket, {
    storage: StorageType.File,
    replicas: options.replicas ?? 1,
    ttl: nanos(ttlDays * 24 * 3600_000),
    description: 'Camera pictures of every quality level (svc-imaging)',
  });
  const objectName = (camera: string, imageName: string, suffix: string) => {
    checkedNames(camera, imageName);
    return `${camera}/${imageName}-${suffix}`;
  };

  // Expires with the day's pictures (the bucket's TTL).
  const clipName = (camera: string, day: string, level: Quality) => {
    checkedNames(camera, `${day}0000`);
    return `${camera}/timelapse-${day}-${level}.mp4`;
  };
  const readBlob = async (name: string) => {
    const bytes = await store.getBlob(name).catch(() => null);
    return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  };

  return {
    description: `NATS object store ${bucket} (pictures expire after ${ttlDays} days)`,
    async save(camera, imageName, variants, modern) {
      for (const [suffix, bytes] of variantFiles(variants, modern)) {
        await store.putBlob({ name: objectName(camera, imageName, suffix) }, bytes);
      }
    },
    async saveClip(camera, day, level, bytes) {
      await store.putBlob({ name: clipName(camera, day, level) }, bytes);
    },
    readClip: (camera, day, level) => readBlob(clipName(camera, day, level)),
    async removeClip(camera, day, level) {
      await store.delete(clipName(camera, day, level));
    },
    read: async (camera, imageName, quality, encoding: PictureEncoding = 'jpeg') =>
      readBlob(objectName(camera, imageName, variantSuffix(quality, encoding))),
    // The bucket's TTL expires old pictures by itself.
    pruneDaysBefore: async () => 0,
    removePictures: async () => 0,
    removeCamera: async () => {},
    close: () => nc.close(),
  };
}
