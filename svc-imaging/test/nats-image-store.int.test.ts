import { imageNameOf, QUALITIES, type Quality } from '@lakecams/contracts';
import type { ServiceApp } from '@lakecams/service-kit';
import { removeNatsNamespace, TEST_NATS_URL } from '@lakecams/service-kit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm, StorageType } from '@nats-io/obj';
import { connect, nanos } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import type { ImageStore } from '../src/store/image-store.ts';
import { createNatsImageStore } from '../src/store/nats-image-store.ts';
import { pruneImages } from '../src/archive/prune.ts';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '../src/testing.ts';

// One namespace for this file; each bucket below adds its own suffix, and all of them go afterwards.
const namespace = `images_${randomBytes(4).toString('hex')}`;
const buckets: string[] = [];
const bucketOf = (suffix: string) => {
  const name = `${namespace}${suffix}`;
  buckets.push(`OBJ_lakecams_images_${name}`);
  return name;
};

afterAll(() => removeNatsNamespace(namespace, buckets));

/** What the bucket holds, read on a connection of its own (as another replica would). */
async function bucketContents(ns: string) {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const store = await new Objm(nc).open(`lakecams_images_${ns}`);
    const names = (await store.list()).filter((info) => !info.deleted).map((info) => info.name);
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(`OBJ_lakecams_images_${ns}`, { subjects_filter: '$O.>' });
    const metadata = Object.keys(info.state.subjects ?? {}).filter((subject) => subject.includes('.M.')).length;
    return { names: names.sort(), metadata, config: info.config, messages: info.state.messages };
  } finally {
    await nc.close();
  }
}

const variants = Object.fromEntries(
  QUALITIES.map((quality, i) => [quality, randomBytes(1000 * (i + 1) + (quality === 'FULL' ? 300_000 : 0))]),
) as Record<Quality, Buffer>;
// AVIF and WebP copies of the scaled levels, as a capture makes them.
const modern = {
  avif: { POOR: randomBytes(700), LOW: randomBytes(700), MEDIUM: randomBytes(700), HIGH: randomBytes(700) },
  webp: { POOR: randomBytes(800), LOW: randomBytes(800), MEDIUM: randomBytes(800), HIGH: randomBytes(800) },
};
/** Every object of one capture with its AVIF and WebP copies: 5 JPEGs, 4 AVIF, 4 WebP. */
const objectsOf = (camera: string, imageName: string) =>
  [
    ...QUALITIES.map((quality) => `${camera}/${imageName}-${quality}.jpg`),
    ...['POOR', 'LOW', 'MEDIUM', 'HIGH'].flatMap((quality) => [
      `${camera}/${imageName}-${quality}.avif`,
      `${camera}/${imageName}-${quality}.webp`,
    ]),
  ].sort();

describe('pictures in the NATS JetStream object store (distributed mode)', () => {
  const ns = bucketOf('');
  let first: ImageStore;
  let second: ImageStore;

  beforeAll(async () => {
    // Two stores on two connections, as two replicas on two hosts would have.
    first = await createNatsImageStore({ servers: TEST_NATS_URL, namespace: ns });
    second = await createNatsImageStore({ servers: TEST_NATS_URL, namespace: ns });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('keeps every quality level where another replica reads it, bytes unchanged', async () => {
    await first.save('Seesicht', '202611221030', variants);
    for (const quality of QUALITIES) {
      const read = await second.read('Seesicht', '202611221030', quality);
      expect(read?.equals(variants[quality]), quality).toBe(true);
    }
    expect(await second.read('Seesicht', '202611221031', 'POOR')).toBeNull();
    expect(await second.read('Andere', '202611221030', 'POOR')).toBeNull();
  });

  it('keeps the AVIF and WebP copies beside the JPEGs, each read by its format', async () => {
    await first.save('Seesicht', '202611221035', variants, modern);
    expect((await second.read('Seesicht', '202611221035', 'POOR', 'avif'))?.equals(modern.avif.POOR)).toBe(true);
    expect((await second.read('Seesicht', '202611221035', 'POOR', 'webp'))?.equals(modern.webp.POOR)).toBe(true);
    expect((await second.read('Seesicht', '202611221035', 'POOR'))?.equals(variants.POOR)).toBe(true);
    expect(await second.read('Seesicht', '202611221035', 'FULL', 'avif')).toBeNull();
  });

  it('has no TTL of its own (the prune decides what goes), and refuses names that are not names', async () => {
    const { config } = await bucketContents(ns);
    expect(config.max_age).toBe(0);
    expect(first.description).toContain(`lakecams_images_${ns}`);
    expect(first.description).not.toMatch(/expire/);
    await expect(first.save('../etc', '202611221030', variants)).rejects.toThrow(/invalid/);
    await expect(first.read('Seesicht', '../../x', 'POOR')).rejects.toThrow(/invalid/);
    await expect(first.removePictures('../etc', ['202611221030'])).rejects.toThrow(/invalid/);
  });

  it('removes every level and format of the pictures it is given, and nothing else', async () => {
    const day = ['202611231000', '202611231020', '202611231100'];
    for (const name of day) await first.save('Thin', name, variants, modern);
    await first.saveClip('Thin', '20261123', 'POOR', randomBytes(500));
    await first.save('Thin-2', '202611231020', variants, modern);
    // From the other replica: it needs nothing of the first's state.
    expect(await second.removePictures('Thin', ['202611231000', '202611231100'])).toBe(2 * 13);
    expect(await second.removePictures('Thin', ['202611231000', '202611231200'])).toBe(0);
    const contents = await bucketContents(ns);
    const ofThin = contents.names.filter((name) => name.startsWith('Thin/'));
    expect(ofThin).toEqual([...objectsOf('Thin', '202611231020'), 'Thin/timelapse-20261123-POOR.mp4'].sort());
    expect(contents.names.filter((name) => name.startsWith('Thin-2/'))).toEqual(objectsOf('Thin-2', '202611231020'));
    // No marker is left per removed object: one metadata subject per stored object.
    expect(contents.metadata).toBe(contents.names.length);
    expect(await second.read('Thin', '202611231000', 'HIGH', 'webp')).toBeNull();
    expect((await second.read('Thin', '202611231020', 'HIGH', 'webp'))?.equals(modern.webp.HIGH)).toBe(true);
    // A removed minute can be stored again (an upload by hand).
    await first.save('Thin', '202611231000', variants);
    expect((await second.read('Thin', '202611231000', 'FULL'))?.equals(variants.FULL)).toBe(true);
  });

  it('prunes whole camera-days before a day, their clips with them', async () => {
    await first.save('Alt', '202601010800', variants, modern);
    await first.save('Alt', '202601011200', variants);
    await first.saveClip('Alt', '20260101', 'LOW', randomBytes(500));
    await first.saveClip('Alt', '20260102', 'LOW', randomBytes(500));
    await first.save('Alt', '202601030900', variants);
    await first.save('Alt-2', '202601010800', variants);
    // Camera-days, as the files store counts its day folders: Alt 1 and 2 January, Alt-2 1 January.
    expect(await second.pruneDaysBefore('20260103')).toBe(3);
    const contents = await bucketContents(ns);
    expect(contents.names.filter((name) => name.startsWith('Alt'))).toEqual(
      QUALITIES.map((quality) => `Alt/202601030900-${quality}.jpg`).sort(),
    );
    expect(await second.readClip('Alt', '20260101', 'LOW')).toBeNull();
    expect(await second.pruneDaysBefore('20260103')).toBe(0);
    // Later days stay: those of the other tests (November 2026) are all still there.
    expect(contents.names.filter((name) => name.startsWith('Seesicht/')).length).toBe(5 + 13);
    expect(contents.metadata).toBe(contents.names.length);
  });

  it("removes all of a removed camera's objects and nothing of another camera", async () => {
    await first.save('Weg', '202611221030', variants, modern);
    await first.save('Weg', '202611231030', variants);
    await first.saveClip('Weg', '20261122', 'MEDIUM', randomBytes(500));
    await first.save('Weg-bleibt', '202611221030', variants);
    const before = (await bucketContents(ns)).names.filter((name) => !name.startsWith('Weg/'));
    await Promise.all([first.removeCamera('Weg'), second.removeCamera('Weg')]);
    const after = await bucketContents(ns);
    expect(after.names).toEqual(before);
    expect(after.names.filter((name) => name.startsWith('Weg-bleibt/')).length).toBe(5);
    expect(after.metadata).toBe(after.names.length);
    await first.removeCamera('../etc');
  });
});

describe('a bucket made with a TTL by an earlier version', () => {
  const ns = bucketOf('_old');
  let store: ImageStore | undefined;

  afterAll(async () => {
    await store?.close();
  });

  it('loses its TTL when svc-imaging starts, keeping every picture it holds', async () => {
    const nc = await connect({ servers: TEST_NATS_URL });
    // As the earlier version made it: pictures expired a day after the retention.
    const old = await new Objm(nc).create(`lakecams_images_${ns}`, {
      storage: StorageType.File,
      replicas: 1,
      ttl: nanos(15 * 24 * 3600_000),
    });
    for (const quality of QUALITIES) await old.putBlob({ name: `Alt/202611011200-${quality}.jpg` }, variants[quality]);
    await nc.close();
    const before = await bucketContents(ns);
    expect(before.config.max_age).toBe(15 * 24 * 3600 * 1e9);

    store = await createNatsImageStore({ servers: TEST_NATS_URL, namespace: ns });
    const after = await bucketContents(ns);
    expect(after.config.max_age).toBe(0);
    expect(after.messages).toBe(before.messages);
    expect(after.names).toEqual(before.names);
    for (const quality of QUALITIES) {
      expect((await store.read('Alt', '202611011200', quality))?.equals(variants[quality]), quality).toBe(true);
    }
    // A second replica starting later finds nothing to change.
    const another = await createNatsImageStore({ servers: TEST_NATS_URL, namespace: ns });
    await another.close();
    expect((await bucketContents(ns)).config.max_age).toBe(0);
  });
});

describe('the nightly prune thins the NATS store to the archive tiers, as it does the files store', () => {
  const ns = bucketOf('_prune');
  let service: ImagingTestService;
  let app: ServiceApp;

  beforeAll(async () => {
    const imageStore = await createNatsImageStore({ servers: TEST_NATS_URL, namespace: ns });
    // Closing the app closes its store.
    service = await buildImagingService({ options: { imageStore } }).catch(async (error) => {
      await imageStore.close();
      throw error;
    });
    app = service.app;
  });

  afterAll(async () => {
    await service?.close();
  });

  it('keeps every capture of recent days, the best of each hour, the best of each day beyond the archive', async () => {
    const row = await service.upsertCamera({ id: 9, name: 'Hafen' });
    const picture = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    const scored = [
      // Between retention and archive: the best of each hour stays.
      ['2026-10-01T08:00:00Z', 40],
      ['2026-10-01T08:20:00Z', 70],
      ['2026-10-01T09:00:00Z', 10],
      // Beyond the archive: the day's best alone.
      ['2025-06-01T07:00:00Z', 20],
      ['2025-06-01T10:00:00Z', 90],
      ['2025-06-01T13:00:00Z', 50],
      // Within the retention: everything.
      ['2026-11-20T08:00:00Z', 30],
      ['2026-11-20T08:05:00Z', 60],
    ] as const;
    const names = new Map<string, string>();
    for (const [at, score] of scored) {
      const name = imageNameOf(new Date(at));
      names.set(at, name);
      const outcome = await captureTick(
        { ...imagingPartsOf(app).capture.context, source: async () => picture },
        row,
        new Date(at),
      );
      expect(outcome.outcome, at).toBe('captured');
      await service.db
        .updateTable('captures')
        .set({ score })
        .where('webcamId', '=', 9)
        .where('name', '=', name)
        .execute();
    }
    const nameOf = (at: (typeof scored)[number][0]) => names.get(at) as string;
    const stored = (await bucketContents(ns)).names;
    const filesOf = (name: string) => stored.filter((object) => object.startsWith(`Hafen/${name}-`));
    // Every capture stored all its levels and formats.
    const perCapture = filesOf(nameOf('2026-10-01T08:00:00Z'));
    expect(perCapture.length).toBeGreaterThanOrEqual(QUALITIES.length);
    for (const [at] of scored) expect(filesOf(nameOf(at)).length, at).toBe(perCapture.length);

    const result = await pruneImages(
      imagingPartsOf(app).capture.context,
      { retentionDays: 14, archiveDays: 365 },
      new Date('2026-11-22T12:00:00Z'),
    );
    expect(result).toMatchObject({ outcome: 'pruned', before: '20261108', captures: 3, days: 2 });

    const kept = [
      '2026-10-01T08:20:00Z',
      '2026-10-01T09:00:00Z',
      '2025-06-01T10:00:00Z',
      '2026-11-20T08:00:00Z',
      '2026-11-20T08:05:00Z',
    ] as const;
    const expected = kept.flatMap((at) => filesOf(nameOf(at))).sort();
    const after = await bucketContents(ns);
    expect(after.names).toEqual(expected);
    expect(after.metadata).toBe(after.names.length);
    const rows = await service.db
      .selectFrom('captures')
      .select('name')
      .where('webcamId', '=', 9)
      .orderBy('name')
      .execute();
    expect(rows.map((r) => r.name)).toEqual(kept.map(nameOf).sort());
    // Served from the store: the entitlement URL redirects to the picture's immutable name.
    const served = async (name: string) => {
      const entitlement = await app.inject({ url: `/api/Image/Get/camera/Hafen/${name}.jpg` });
      if (entitlement.statusCode !== 302) return entitlement.statusCode;
      const location = new URL(entitlement.headers.location as string, 'http://localhost');
      return (await app.inject({ url: `${location.pathname}${location.search}` })).statusCode;
    };
    for (const at of kept) expect(await served(nameOf(at)), at).toBe(200);
    expect(await served(nameOf('2025-06-01T07:00:00Z'))).toBe(404);
  });
});
