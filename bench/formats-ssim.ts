import sharp, { type Sharp } from 'sharp';

/** One greyscale picture: 8-bit luma, row by row. */
export interface GreyPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

const WINDOW = 8;
const STEP = 4;
// The usual SSIM constants for 8-bit pixels (K1 = 0.01, K2 = 0.03).
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

/**
 * Mean structural similarity of two greyscale pictures of the same size: 8×8 windows every 4 pixels,
 * uniform weights. 1 means identical; what a codec loses shows as a lower value.
 */
export function ssim(a: GreyPixels, b: GreyPixels): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('SSIM needs two pictures of the same size');
  if (a.width < WINDOW || a.height < WINDOW) throw new Error(`SSIM needs pictures of at least ${WINDOW}×${WINDOW}`);
  const n = WINDOW * WINDOW;
  let sum = 0;
  let windows = 0;
  for (let top = 0; top + WINDOW <= a.height; top += STEP) {
    for (let left = 0; left + WINDOW <= a.width; left += STEP) {
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let y = top; y < top + WINDOW; y++) {
        for (let i = y * a.width + left, end = i + WINDOW; i < end; i++) {
          const x = a.data[i] as number;
          const z = b.data[i] as number;
          sa += x;
          sb += z;
          saa += x * x;
          sbb += z * z;
          sab += x * z;
        }
      }
      const ma = sa / n;
      const mb = sb / n;
      const va = saa / n - ma * ma;
      const vb = sbb / n - mb * mb;
      const cov = sab / n - ma * mb;
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      windows += 1;
    }
  }
  return sum / windows;
}

/** Any picture sharp reads (or raw RGB pixels) as greyscale pixels. */
export async function greyPixelsOf(input: Buffer | Sharp): Promise<GreyPixels> {
  const image = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
