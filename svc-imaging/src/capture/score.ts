import sharp from 'sharp';

/** Width of the reduction the score is measured on: the measures are stable there and cost a few ms. */
export const SCORE_WIDTH = 320;
/** Side of the greyscale fingerprint compared with the previous capture's to find a frozen picture. */
const FINGERPRINT_SIZE = { width: 16, height: 9 } as const;
/** Mean difference (of 255) below which two captures show the same picture. */
const FROZEN_DIFFERENCE = 1.5;

/** How each measured property weighs in the score (docs/decisions.md, "Best of day"). */
export const SCORE_WEIGHTS = { sharpness: 0.4, exposure: 0.25, contrast: 0.2, colourfulness: 0.15 } as const;

export interface PictureMeasures {
  /** Variance of the Laplacian of the luminance (0–255 scale). */
  laplacianVariance: number;
  /** Mean luminance, 0–1. */
  meanLuminance: number;
  /** Share of pixels crushed to black or burnt to white. */
  clipped: number;
  /** Standard deviation of the luminance, 0–1. */
  luminanceSpread: number;
  /** Hasler–Süsstrunk colourfulness (0–255 scale; 33 is "moderately", 59 "highly" colourful). */
  colourfulness: number;
}

export interface PictureScore {
  /** 0–100; 0 for a frozen picture. */
  score: number;
  /** Greyscale 16×9 fingerprint, kept to compare the next capture with. */
  fingerprint: Buffer;
  frozen: boolean;
}

/** What the previous capture of the same camera left to compare with. */
export interface PreviousCapture {
  contentHash: string | null;
  fingerprint: Buffer | null;
}

/** Luminance, colour and sharpness figures of a picture, measured on a 320 px reduction. */
export async function measurePicture(input: Buffer): Promise<PictureMeasures> {
  const { data, info } = await sharp(input)
    .rotate()
    .resize({ width: SCORE_WIDTH, withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const pixels = width * height;
  const luma = new Float64Array(pixels);
  let lumaSum = 0;
  let lumaSquares = 0;
  let clipped = 0;
  let rgSum = 0;
  let rgSquares = 0;
  let ybSum = 0;
  let ybSquares = 0;
  for (let i = 0; i < pixels; i++) {
    const r = data[i * channels] as number;
    const g = (channels >= 3 ? data[i * channels + 1] : r) as number;
    const b = (channels >= 3 ? data[i * channels + 2] : r) as number;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    luma[i] = y;
    lumaSum += y;
    lumaSquares += y * y;
    if (y < 6 || y > 249) clipped++;
    const rg = r - g;
    const yb = 0.5 * (r + g) - b;
    rgSum += rg;
    rgSquares += rg * rg;
    ybSum += yb;
    ybSquares += yb * yb;
  }
  const mean = lumaSum / pixels;
  const spread = Math.sqrt(Math.max(0, lumaSquares / pixels - mean * mean));
  const rgMean = rgSum / pixels;
  const ybMean = ybSum / pixels;
  const rgSpread = Math.sqrt(Math.max(0, rgSquares / pixels - rgMean * rgMean));
  const ybSpread = Math.sqrt(Math.max(0, ybSquares / pixels - ybMean * ybMean));
  return {
    laplacianVariance: laplacianVariance(luma, width, height),
    meanLuminance: mean / 255,
    clipped: clipped / pixels,
    luminanceSpread: spread / 255,
    colourfulness: Math.hypot(rgSpread, ybSpread) + 0.3 * Math.hypot(rgMean, ybMean),
  };
}

/** Variance of the 4-neighbour Laplacian over the inner pixels: high for crisp edges, low for blur. */
function laplacianVariance(luma: Float64Array, width: number, height: number): number {
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const value =
        (luma[i - 1] as number) +
        (luma[i + 1] as number) +
        (luma[i - width] as number) +
        (luma[i + width] as number) -
        4 * (luma[i] as number);
      sum += value;
      squares += value * value;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return squares / count - mean * mean;
}

/** The measures, each brought to 0–1 and weighed: 0–100, one decimal. */
export function scoreOfMeasures(measures: PictureMeasures): number {
  // Saturating curves: beyond a crisp, lively picture more of a property adds nothing.
  const sharpness = measures.laplacianVariance / (measures.laplacianVariance + 100);
  const exposure =
    Math.max(0, 1 - Math.abs(measures.meanLuminance - 0.5) / 0.5) * Math.max(0, 1 - 2 * measures.clipped);
  const contrast = Math.min(1, measures.luminanceSpread / 0.22);
  const colourfulness = Math.min(1, measures.colourfulness / 60);
  const weighed =
    SCORE_WEIGHTS.sharpness * sharpness +
    SCORE_WEIGHTS.exposure * exposure +
    SCORE_WEIGHTS.contrast * contrast +
    SCORE_WEIGHTS.colourfulness * colourfulness;
  return Math.round(weighed * 1000) / 10;
}

export async function fingerprintOf(input: Buffer): Promise<Buffer> {
  return sharp(input)
    .rotate()
    .resize(FINGERPRINT_SIZE.width, FINGERPRINT_SIZE.height, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
}

/** Same bytes, or pictures whose fingerprints barely differ: the camera delivers a frozen picture. */
export function isFrozen(contentHash: string, fingerprint: Buffer, previous: PreviousCapture | undefined): boolean {
  if (!previous) return false;
  if (previous.contentHash === contentHash) return true;
  if (!previous.fingerprint || previous.fingerprint.length !== fingerprint.length) return false;
  let difference = 0;
  for (let i = 0; i < fingerprint.length; i++)
    difference += Math.abs((fingerprint[i] as number) - (previous.fingerprint[i] as number));
  return difference / fingerprint.length < FROZEN_DIFFERENCE;
}

/**
 * The picture's quality score for choosing the best of a day: sharpness, exposure, contrast and
 * colourfulness, and 0 when it is the previous capture again (a frozen camera).
 */
export async function scorePicture(
  input: Buffer,
  contentHash: string,
  previous?: PreviousCapture,
): Promise<PictureScore> {
  const fingerprint = await fingerprintOf(input);
  if (isFrozen(contentHash, fingerprint, previous)) return { score: 0, fingerprint, frozen: true };
  return { score: scoreOfMeasures(await measurePicture(input)), fingerprint, frozen: false };
}
