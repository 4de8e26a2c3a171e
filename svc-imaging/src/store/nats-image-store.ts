import { isValidCameraName, QUALITIES, type Quality } from '@lakecams/contracts';
import { Base64UrlPaddedCodec, Objm, StorageType } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { PICTURE_ENCODINGS, type PictureEncoding, variantFiles, variantSuffix } from './formats.ts';
import { checkedNames, type ImageStore } from './image-store.ts';

export interface NatsImageStoreOptions {
  servers: string;
  /** Keeps several portals apart on one NATS server (as `BUS_NAMESPACE` does for the bus). */
  namespace?: string;
  /** Copies in a NATS cluster. */
  replicas?: number;
}

/** `<camera>/<yyyyMMddHHmm>-<suffix>` or `<camera>/timelapse-<yyyyMMdd>-<QUALITY>.mp4`: the camera and the day. */
const OBJECT_NAME = /^([^/]+)\/(?:(\d{8})\d{4}-[A-Z]+\.[a-z]+|timelapse-(\d{8})-[A-Z]+\.mp4)$/;

/** Deletions run this many at a time: a thinned day or a removed camera holds thousands of objects. */
const PARALLEL_DELETES = 16;

async function eachInBatches<T>(items: readonly T[], work: (item: T) => Promise<boolean>): Promise<number> {
  let done = 0;
  for (let start = 0; start < items.length; start += PARALLEL_DELETES) {
    const results = await Promise.all(items.slice(start, start + PARALLEL_DELETES).map(work));
    done += results.filter(Boolean).length;
  }
  return done;
}

/**
 * Pictures in a NATS JetStream object store, reachable by every svc-imaging replica on every host.
 * Objects are `<camera>/<yyyyMMddHHmm>-<QUALITY>.<jpg|avif|webp>` and `<camera>/timelapse-<yyyyMMdd>-<QUALITY>.mp4`.
 * The bucket has no TTL: pictures stay until the nightly prune thins them to the archive tiers
 * (retention-tiers.ts), exactly as the files store's do (decisions.md, "NATS picture store follows the tiers").
 */
export async function createNatsImageStore(options: NatsImageStoreOptions): Promise<ImageStore> {
  const bucket = options.namespace ? `lakecams_images_${options.namespace}` : 'lakecams_images';
  const nc = await connect({
    servers: options.servers.split(',').map((server) => server.trim()),
    name: 'svc-imaging-images',
    maxReconnectAttempts: -1,
  });
  const objm = new Objm(nc);
  const store = await objm
    .create(bucket, {
      storage: StorageType.File,
      replicas: options.replicas ?? 1,
      description: 'Camera pictures of every quality level, kept until the prune thins them (svc-imaging)',
    })
    .catch(async (error) => {
      await nc.close();
      throw error;
    });
  const jsm = await objm.js.jetstreamManager();
  const stream = `OBJ_${bucket}`;
  // create() opens an existing bucket as it is: one made by an earlier version still expires pictures after
  // its TTL. Lifting it keeps every stored message; replicas starting together set the same value.
  const status = await store.status();
  if (status.ttl > 0) await jsm.streams.update(stream, { max_age: 0 });

  const objectName = (camera: string, imageName: string, suffix: string) => {
    checkedNames(camera, imageName);
    return `${camera}/${imageName}-${suffix}`;
  };
  // Kept and pruned with the day's pictures, like the files store's clip in the day's folder.
  const clipName = (camera: string, day: string, level: Quality) => {
    checkedNames(camera, `${day}0000`);
    return `${camera}/timelapse-${day}-${level}.mp4`;
  };
  const readBlob = async (name: string) => {
    const bytes = await store.getBlob(name).catch(() => null);
    return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  };

  /** Removes one object and its metadata; false when it was not stored. */
  async function removeObject(name: string): Promise<boolean> {
    const info = await store.info(name);
    if (!info || info.deleted) return false;
    await store.delete(name);
    // delete() leaves a marker per object; without a TTL the markers of every thinned picture would pile up
    // in the stream forever, so the object's metadata subject (`$O.<bucket>.M.<name in base64url>`) goes too.
    await jsm.streams.purge(stream, { filter: `$O.${bucket}.M.${Base64UrlPaddedCodec.encode(name)}` });
    return true;
  }

  /** Names of every stored object (the object store has no listing by prefix). */
  const storedNames = async () => (await store.list()).filter((info) => !info.deleted).map((info) => info.name);

  return {
    description: `NATS object store ${bucket} (kept until the nightly prune thins them to the archive tiers)`,
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
      await removeObject(clipName(camera, day, level));
    },
    read: async (camera, imageName, quality, encoding: PictureEncoding = 'jpeg') =>
      readBlob(objectName(camera, imageName, variantSuffix(quality, encoding))),
    async removePictures(camera, imageNames) {
      // Every level in every format a capture may have (variantFiles); absent ones are skipped.
      const names = imageNames.flatMap((imageName) =>
        QUALITIES.flatMap((quality) =>
          PICTURE_ENCODINGS.map((encoding) => objectName(camera, imageName, variantSuffix(quality, encoding))),
        ),
      );
      return eachInBatches(names, removeObject);
    },
    async pruneDaysBefore(keepFromDay) {
      const days = new Set<string>();
      const names = (await storedNames()).filter((name) => {
        const match = OBJECT_NAME.exec(name);
        const day = match?.[2] ?? match?.[3];
        if (!match || !day || day >= keepFromDay) return false;
        days.add(`${match[1]}/${day}`);
        return true;
      });
      await eachInBatches(names, removeObject);
      // Camera-days, as the files store counts day folders.
      return days.size;
    },
    async removeCamera(camera) {
      if (!isValidCameraName(camera)) return;
      const names = (await storedNames()).filter((name) => name.startsWith(`${camera}/`));
      await eachInBatches(names, removeObject);
    },
    close: () => nc.close(),
  };
}
