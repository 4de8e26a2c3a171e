import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { measurePicture, scorePicture } from '../src/capture/score.ts';

const WIDTH = 960;
const HEIGHT = 540;

/** A lake scene: blue sky, green shore with detail, a lake with ripples and a few bright boats. */
async function lakeScene(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const noise = (random() - 0.5) * 60;
      let rgb: [number, number, number];
      if (y < HEIGHT * 0.35) rgb = [90 + y / 4, 150 + y / 5, 230];
      else if (y < HEIGHT * 0.55) rgb = [60 + noise, 140 + noise, 50 + noise / 2];
      else rgb = [30 + ((x + y) % 24 < 12 ? 40 : 0), 90 + noise / 2, 160 + ((x * 3 + y) % 16 < 8 ? 50 : 0)];
      if (x % 160 < 20 && y > HEIGHT * 0.6 && y < HEIGHT * 0.66) rgb = [245, 240, 230];
      pixels.set(
        rgb.map((v) => Math.max(0, Math.min(255, Math.round(v)))),
        i,
      );
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('scorePicture', () => {
  let scene: Buffer;
  let good: number;

  beforeAll(async () => {
    scene = await lakeScene();
    good = (await scorePicture(scene, hashOf(scene))).score;
  });

  it('gives a sharp, well-exposed, colourful picture a high score', async () => {
    expect(good).toBeGreaterThan(60);
    expect(good).toBeLessThanOrEqual(100);
  });

  it('scores a blurred picture lower', async () => {
    const blurred = await sharp(scene).blur(6).jpeg().toBuffer();
    const measures = await measurePicture(blurred);
    expect(measures.laplacianVariance).toBeLessThan((await measurePicture(scene)).laplacianVariance / 10);
    expect((await scorePicture(blurred, hashOf(blurred))).score).toBeLessThan(good - 15);
  });

  it('scores a dark picture lower', async () => {
    const dark = await sharp(scene).linear(0.12, 0).jpeg().toBuffer();
    expect((await measurePicture(dark)).meanLuminance).toBeLessThan(0.1);
    expect((await scorePicture(dark, hashOf(dark))).score).toBeLessThan(good - 15);
  });

  it('scores a grey, flat picture (fog, lens cap) lower', async () => {
    const flat = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    expect((await scorePicture(flat, hashOf(flat))).score).toBeLessThan(30);
  });

  it('gives a frozen picture 0: the same bytes as the previous capture, or the same picture encoded again', async () => {
    const first = await scorePicture(scene, hashOf(scene));
    const same = await scorePicture(scene, hashOf(scene), { contentHash: hashOf(scene), fingerprint: null });
    expect(same).toMatchObject({ score: 0, frozen: true });
    const reencoded = await sharp(scene).jpeg({ quality: 70 }).toBuffer();
    const again = await scorePicture(reencoded, hashOf(reencoded), {
      contentHash: hashOf(scene),
      fingerprint: first.fingerprint,
    });
    expect(again).toMatchObject({ score: 0, frozen: true });
  });

  it('does not take a changed picture for a frozen one', async () => {
    const first = await scorePicture(scene, hashOf(scene));
    const brighter = await sharp(scene).linear(1.2, 10).jpeg().toBuffer();
    const next = await scorePicture(brighter, hashOf(brighter), {
      contentHash: hashOf(scene),
      fingerprint: first.fingerprint,
    });
    expect(next.frozen).toBe(false);
    expect(next.score).toBeGreaterThan(0);
  });
});
