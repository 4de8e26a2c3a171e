import { describe, expect, it } from 'vitest';
import { type GreyPixels, ssim } from '../formats-ssim.ts';

function picture(width: number, height: number, pixel: (x: number, y: number) => number): GreyPixels {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = pixel(x, y);
  return { data, width, height };
}

const checker = picture(64, 48, (x, y) => (((x >> 2) + (y >> 2)) % 2 ? 220 : 30));

describe('ssim', () => {
  it('is 1 for a picture against itself', () => {
    expect(ssim(checker, checker)).toBeCloseTo(1, 10);
  });

  it('falls as a picture loses detail, and more for more loss', () => {
    const blurred = (amount: number) =>
      picture(64, 48, (x, y) => {
        const value = checker.data[y * 64 + x] as number;
        return Math.round(value + (125 - value) * amount);
      });
    const slight = ssim(checker, blurred(0.2));
    const heavy = ssim(checker, blurred(0.8));
    expect(slight).toBeLessThan(1);
    expect(heavy).toBeLessThan(slight);
    expect(heavy).toBeGreaterThan(0);
  });

  it('is symmetric and near 0 for unrelated structure', () => {
    const stripes = picture(64, 48, (x) => (x % 2 ? 255 : 0));
    expect(ssim(checker, stripes)).toBeCloseTo(ssim(stripes, checker), 12);
    expect(Math.abs(ssim(checker, stripes))).toBeLessThan(0.2);
  });

  it('refuses pictures of different sizes', () => {
    expect(() =>
      ssim(
        checker,
        picture(32, 48, () => 0),
      ),
    ).toThrow(/same size/);
  });
});
