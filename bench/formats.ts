import { type Quality, QUALITIES } from '@lakecams/contracts';
import sharp, { type Sharp } from 'sharp';
import {
  encodePicture,
  MODERN_ENCODINGS,
  type ModernEncoding,
  renderDemoImage,
  deriveQualityVariants,
  QUALITY_WIDTHS,
} from '@lakecams/svc-imaging/media';
import { render4kPicture } from './capture.ts';
import { type GreyPixels, greyPixelsOf, ssim } from './formats-ssim.ts';
import { log, type ResultRow, row, verdict } from './harness.ts';

type ScaledQuality = Exclude<Quality, 'FULL'>;
const LEVELS = QUALITIES.filter((q): q is ScaledQuality => q !== 'FULL');

/**
 * The lowest encoder quality whose picture is at least as similar to the source as the JPEG is, and its
 * bytes: the size at equal SSIM (bisection; SSIM grows with quality save for noise).
 */
async function bytesAtEqualSsim(
  source: Sharp,
  reference: GreyPixels,
  encoding: ModernEncoding,
  width: number,
  target: number,
): Promise<{ quality: number; bytes: number } | null> {
  const encode = (q: number) => encodePicture(source.clone(), encoding, width, q).toBuffer();
  let low = 1;
  let high = 100;
  let best: { quality: number; bytes: number } | null = null;
  while (low <= high) {
    const q = Math.floor((low + high) / 2);
    const bytes = await encode(q);
    if (ssim(reference, await greyPixelsOf(bytes)) >= target) {
      best = { quality: q, bytes: bytes.length };
      high = q - 1;
    } else low = q + 1;
  }
  return best;
}

/** Bytes and SSIM of every level in every format, against the pixels each level was encoded from. */
async function bytesPerLevel(label: string, input: Buffer): Promise<ResultRow[]> {
  const { variants, modern } = await deriveQualityVariants(input);
  const { data, info } = await sharp(input).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const rows: ResultRow[] = [];
  for (const quality of LEVELS) {
    const width = QUALITY_WIDTHS[quality];
    const scaled = await sharp(data, raw).resize({ width }).raw().toBuffer({ resolveWithObject: true });
    const source = sharp(scaled.data, { raw: scaled.info });
    const reference = await greyPixelsOf(source.clone());
    const jpeg = variants[quality];
    const jpegSsim = ssim(reference, await greyPixelsOf(jpeg));
    for (const encoding of MODERN_ENCODINGS) {
      const bytes = modern[encoding][quality] as Buffer;
      const itsSsim = ssim(reference, await greyPixelsOf(bytes));
      const equal = await bytesAtEqualSsim(source, reference, encoding, width, jpegSsim);
      const equalRatio = equal ? equal.bytes / jpeg.length : null;
      log(
        `  ${label} ${quality} ${encoding}: ${bytes.length} B (SSIM ${itsSsim.toFixed(4)}) vs JPEG ${jpeg.length} B (${jpegSsim.toFixed(4)}); equal SSIM ${equal ? `q${equal.quality} ${equal.bytes} B` : 'not reached'}`,
      );
      rows.push(
        row({
          benchmark: 'formats',
          case: `${label}, ${quality} ${width} px, ${encoding.toUpperCase()}`,
          metric: 'bytes',
          unit: 'count',
          portal: bytes.length,
          baseline: jpeg.length,
          baselineLabel: 'JPEG q80',
          target: '≤ 0.6× JPEG at equal SSIM',
          verdict: equalRatio === null ? 'missed' : verdict(equalRatio <= 0.6),
          note: `SSIM ${itsSsim.toFixed(3)} vs JPEG ${jpegSsim.toFixed(3)}; at equal SSIM ${equal ? `${equal.bytes} B (q${equal.quality}) = ${(equalRatio as number).toFixed(2)}×` : 'not reached'}`,
        }),
      );
    }
  }
  return rows;
}

/** AVIF and WebP beside JPEG: bytes and SSIM per level (what making them costs: capture.ts). */
export async function formats(): Promise<ResultRow[]> {
  const grainy = await render4kPicture();
  const demo = await renderDemoImage('Benchmark', new Date(Date.UTC(2026, 5, 1, 10, 0)));
  return [...(await bytesPerLevel('4K with grain', grainy)), ...(await bytesPerLevel('demo camera', demo))];
}
