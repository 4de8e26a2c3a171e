import { QUALITIES, type Quality } from '@lakecams/contracts';
import { TEST_NATS_URL } from '@lakecams/service-kit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageStore } from '../src/image-store.ts';
import { createNatsImageStore } from '../src/nats-image-store.ts';

describe('pictures in the NATS JetStream object store (distributed mode)', () => {
  const namespace = `images_${randomBytes(4).toString('hex')}`;
  let first: ImageStore;
  let second: ImageStore;
  const variants = Object.fromEntries(
    QUALITIES.map((quality, i) => [quality, randomBytes(1000 * (i + 1) + (quality === 'FULL' ? 300_000 : 0))]),
  ) as Record<Quality, Buffer>;

  beforeAll(async () => {
    // Two stores on two connections, as two replicas on two hosts would have.
    first = await createNatsImageStore({ servers: TEST_NATS_URL, namespace, retentionDays: 14 });
    second = await createNatsImageStore({ servers: TEST_NATS_URL, namespace, retentionDays: 14 });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    const nc = await connect({ servers: TEST_NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(`OBJ_lakecams_images_${namespace}`).catch(() => false);
    await nc.close();
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
    const modern = { avif: { POOR: randomBytes(700) }, webp: { POOR: randomBytes(800) } };
    await first.save('Seesicht', '202611221035', variants, modern);
    expect((await second.read('Seesicht', '202611221035', 'POOR', 'avif'))?.equals(modern.avif.POOR)).toBe(true);
    expect((await second.read('Seesicht', '202611221035', 'POOR', 'webp'))?.equals(modern.webp.POOR)).toBe(true);
    expect((await second.read('Seesicht', '202611221035', 'POOR'))?.equals(variants.POOR)).toBe(true);
    expect(await second.read('Seesicht', '202611221035', 'FULL', 'avif')).toBeNull();
  });

  it('lets the bucket expire pictures a day after the retention, and refuses names that are not names', async () => {
    const nc = await connect({ servers: TEST_NATS_URL });
    const info = await (await jetstreamManager(nc)).streams.info(`OBJ_lakecams_images_${namespace}`);
    await nc.close();
    expect(info.config.max_age).toBe(15 * 24 * 3600 * 1e9);
    expect(first.description).toContain(`lakecams_images_${namespace}`);
    await expect(first.save('../etc', '202611221030', variants)).rejects.toThrow(/invalid/);
    await expect(first.read('Seesicht', '../../x', 'POOR')).rejects.toThrow(/invalid/);
  });
});
