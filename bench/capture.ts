import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { deriveQualityVariants, createImageStore } from '@lakecams/svc-imaging/media';
import { minimalSharpCapture } from './minimal-sharp-capture.ts';
import { ensureResultsDir, log, median, REPEATS, type ResultRow, row, verdict } from './harness.ts';

const WIDTH = 3840;
const HEIGHT = 2160;

/** A 4K camera picture with the detail of a real one (sky, hills, water, grain), so JPEG work is realistic. */
export async function render4kPicture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4f9fdc"/><stop offset="1" stop-color="#cfe8f7"/></linearGradient>
    <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f6f8f"/><stop offset="1" stop-color="#123a52"/></linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  <polygon points="0,2160 0,1050 480,820 960,990 1440,760 1920,930 2400,700 2880,880 3360,780 3840,1000 3840,2160" fill="#3d5a4a"/>
  <rect y="1290" width="100%" height="870" fill="url(#lake)"/>
  ${Array.from({ length: 60 }, (_, i) => `<rect x="${(i * 911) % 3700}" y="${1000 + ((i * 37) % 260)}" width="${40 + (i % 7) * 12}" height="${30 + (i % 5) * 10}" fill="#${(0xd0c0a0 + i * 0x10203).toString(16).slice(-6)}"/>`).join('')}
  <text x="120" y="170" font-family="DejaVu Sans, sans-serif" font-size="96" font-weight="bold" fill="#fff">Benchmark 4K</text>
</svg>`;
  const scene = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  // Sensor grain: what makes real camera JPEGs large and slow to decode compared with flat drawings.
  const grain = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 14 },
    },
  })
    .raw()
    .toBuffer();
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  const channels = scene.info.channels;
  for (let i = 0, j = 0; i < pixels.length; i += 3, j += channels) {
    for (let c = 0; c < 3; c++) {
      const value = (scene.data[j + c] as number) + (grain[i + c] as number) - 128;
      pixels[i + c] = value < 0 ? 0 : value > 255 ? 255 : value;
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

interface Timing {
  wallMs: number;
  /** CPU time of all threads (libvips included): what the work costs a core, whatever else runs. */
  cpuMs: number;
}

async function timed(work: () => Promise<void>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** A 4K JPEG into the five quality levels in JPEG, AVIF and WebP: svc-imaging's capture code against a minimal sharp script. */
export async function capture(): Promise<ResultRow[]> {
  const input = await render4kPicture();
  log(`4K input: ${(input.length / 2 ** 20).toFixed(2)} MiB`);
  const dir = await ensureResultsDir('capture');
  const store = createImageStore(join(dir, 'store'));
  const runs = Math.max(REPEATS * 5, 15);
  const portal: Timing[] = [];
  const baseline: Timing[] = [];
  // One unmeasured round of each warms sharp's thread pool and the file system.
  const realCapture = async (i: number) => {
    const { variants, modern } = await deriveQualityVariants(input);
    await store.save('Bench4K', `2026010100${String(i).padStart(2, '0')}`, variants, modern);
  };
  await realCapture(99);
  await minimalSharpCapture(input, join(dir, 'baseline', 'warm'));
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always runs on a freshly idle thread pool.
    const measureBaseline = async () =>
      baseline.push(await timed(() => minimalSharpCapture(input, join(dir, 'baseline', String(i)))));
    if (i % 2) await measureBaseline();
    portal.push(await timed(() => realCapture(i)));
    if (!(i % 2)) await measureBaseline();
  }
  await rm(dir, { recursive: true, force: true });
  const wall = { portal: median(portal.map((t) => t.wallMs)), baseline: median(baseline.map((t) => t.wallMs)) };
  const cpu = { portal: median(portal.map((t) => t.cpuMs)), baseline: median(baseline.map((t) => t.cpuMs)) };
  log(
    `capture: ${wall.portal.toFixed(0)} ms (cpu ${cpu.portal.toFixed(0)} ms) vs ${wall.baseline.toFixed(0)} ms (cpu ${cpu.baseline.toFixed(0)} ms)`,
  );
  const perCoreSecond = { portal: 1000 / cpu.portal, baseline: 1000 / cpu.baseline };
  const camerasPerCore = { portal: 60 * perCoreSecond.portal, baseline: 60 * perCoreSecond.baseline };
  const common = { benchmark: 'capture', case: '4K → 5 levels, JPEG + AVIF + WebP', baselineLabel: 'minimal sharp' };
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
      metric: 'captures/s per core',
      unit: '/s',
      portal: perCoreSecond.portal,
      baseline: perCoreSecond.baseline,
    }),
    row({
      ...common,
      metric: '1-minute 4K cameras per core',
      unit: '',
      portal: camerasPerCore.portal,
      baseline: camerasPerCore.baseline,
      target: '≥ 100',
      verdict: verdict(camerasPerCore.portal >= 100),
      note: `input ${(input.length / 2 ** 20).toFixed(1)} MiB`,
    }),
  ];
}
