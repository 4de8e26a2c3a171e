import { type Quality, QUALITIES } from '@lakecams/contracts';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import {
  encodePicture,
  MODERN_ENCODINGS,
  type ModernEncoding,
  type PictureEncoding,
  variantSuffix,
} from '../svc-imaging/src/capture/formats.ts';
import { renderDemoImage } from '../svc-imaging/src/demo-source.ts';
import { deriveQualityVariants } from '../svc-imaging/src/derive-variants.ts';
import { createImageStore } from '../svc-imaging/src/image-store.ts';
import { QUALITY_WIDTHS } from '../svc-imaging/src/quality.ts';
import { render4kPicture } from './capture.ts';
import { type GreyPixels, greyPixelsOf, ssim } from './formats-ssim.ts';
import { ensureResultsDir, log, median, REPEATS, type ResultRow, row, verdict } from './harness.ts';

type ScaledQuality = Exclude<Quality, 'FULL'>;
const LEVELS = QUALITIES.filter((q): q is ScaledQuality => q !== 'FULL');

/** The minimal sharp script: decode once, each level in each format straight from the pixels, FULL as it came. */
async function minimalSharpCapture(input: Buffer, dir: string): Promise<void> {
  const { data, info } = await sharp(input).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  await mkdir(dir, { recursive: true });
  await Promise.all([
    ...LEVELS.flatMap((quality) =>
      (['jpeg', ...MODERN_ENCODINGS] as PictureEncoding[]).map(async (encoding) => {
        const width = QUALITY_WIDTHS[quality];
        const bytes = await encodePicture(sharp(data, raw).resize({ width }), encoding, width).toBuffer();
        await writeFile(join(dir, variantSuffix(quality, encoding)), bytes);
      }),
    ),
    writeFile(join(dir, 'FULL.jpg'), input),
  ]);
}

async function cpuTimed(work: () => Promise<void>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** Capture in all formats: svc-imaging's derive + store against the minimal script, in turns. */
async function captureCost(input: Buffer): Promise<ResultRow[]> {
  const dir = await ensureResultsDir('formats');
  const store = createImageStore(join(dir, 'store'));
  const capture = async (i: number) => {
    const { variants, modern } = await deriveQualityVariants(input);
    await store.save('Bench4K', `2026010100${String(i).padStart(2, '0')}`, variants, modern);
  };
  await capture(99);
  await minimalSharpCapture(input, join(dir, 'baseline', 'warm'));
  const portal: { wallMs: number; cpuMs: number }[] = [];
  const baseline: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < Math.max(REPEATS * 3, 9); i++) {
    const measureBaseline = async () =>
      baseline.push(await cpuTimed(() => minimalSharpCapture(input, join(dir, 'baseline', String(i)))));
    if (i % 2) await measureBaseline();
    portal.push(await cpuTimed(() => capture(i)));
    if (!(i % 2)) await measureBaseline();
  }
  await rm(dir, { recursive: true, force: true });
  const wall = { portal: median(portal.map((t) => t.wallMs)), baseline: median(baseline.map((t) => t.wallMs)) };
  const cpu = { portal: median(portal.map((t) => t.cpuMs)), baseline: median(baseline.map((t) => t.cpuMs)) };
  log(`formats capture: ${wall.portal.toFixed(0)} ms (cpu ${cpu.portal.toFixed(0)}) vs ${wall.baseline.toFixed(0)} ms`);
  const common = {
    benchmark: 'formats',
    case: '4K → 5 levels in JPEG, AVIF, WebP',
    baselineLabel: 'minimal sharp',
  };
  return [
    row({
      ...common,
      metric: 'time per capture',
      unit: 'ms',
      portal: wall.portal,
      baseline: wall.baseline,
      target: '≤ 1.5× baseline',
      verdict: verdict(wall.portal <= 1.5 * wall.baseline),
    }),
    row({ ...common, metric: 'CPU per capture', unit: 'ms', portal: cpu.portal, baseline: cpu.baseline }),
    row({
      ...common,
      metric: '1-minute 4K cameras per core',
      unit: '',
      portal: 60_000 / cpu.portal,
      baseline: 60_000 / cpu.baseline,
      target: '≥ 100',
      verdict: verdict(60_000 / cpu.portal >= 100),
    }),
  ];
}

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

/** AVIF and WebP beside JPEG: bytes and SSIM per level, and what making them costs at capture. */
export async function formats(): Promise<ResultRow[]> {
  const grainy = await render4kPicture();
  const demo = await renderDemoImage('Benchmark', new Date(Date.UTC(2026, 5, 1, 10, 0)));
  return [
    ...(await captureCost(grainy)),
    ...(await bytesPerLevel('4K with grain', grainy)),
    ...(await bytesPerLevel('demo camera', demo)),
  ];
}
