import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { encodeTimelapse, FFMPEG_PATH, ffmpegArguments } from '@lakecams/svc-imaging/media';
import { cpuSecondsOf, ensureResultsDir, log, median, REPEATS, type ResultRow, row, verdict } from './harness.ts';

const WIDTH = 1280;
const HEIGHT = 720;
/** A day at 5-minute captures. */
const DAY_FRAMES = 288;
const MEASURED_FRAMES = 100;
const SIZE_BUDGET = 3_000_000;

/** Sensor grain, changing from picture to picture: what makes real camera pictures costly to encode. */
const GRAINS = 7;
const grains = new Map<number, Promise<Buffer>>();
function grainOf(variant: number): Promise<Buffer> {
  const known = grains.get(variant);
  if (known) return known;
  const made = sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer();
  grains.set(variant, made);
  return made;
}

/** One 1280 px picture of the day: light changing with the hour, a boat crossing, clouds, and sensor grain. */
async function dayFrame(index: number): Promise<Buffer> {
  const hour = (index / DAY_FRAMES) * 24;
  const light = Math.max(0.08, Math.sin(((hour - 6) / 12) * Math.PI));
  const shade = (r: number, g: number, b: number) =>
    `rgb(${Math.round(r * light)},${Math.round(g * light)},${Math.round(b * light)})`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <rect width="100%" height="100%" fill="${shade(110, 170, 225)}"/>
  ${Array.from({ length: 6 }, (_, i) => `<ellipse cx="${((i * 260 + index * 7) % 1400) - 60}" cy="${80 + i * 25}" rx="120" ry="30" fill="${shade(235, 240, 245)}"/>`).join('')}
  <polygon points="0,720 0,350 160,270 320,330 480,250 640,310 800,230 960,290 1120,260 1280,330 1280,720" fill="${shade(60, 90, 74)}"/>
  <rect y="430" width="100%" height="290" fill="${shade(47, 111, 143)}"/>
  <polygon points="${(index * 5) % 1280},470 ${((index * 5) % 1280) + 30},420 ${((index * 5) % 1280) + 60},470" fill="${shade(250, 250, 250)}"/>
  <text x="40" y="60" font-family="DejaVu Sans, sans-serif" font-size="32" fill="#fff">Benchmark ${String(Math.floor(hour)).padStart(2, '0')}:${String(Math.round((hour % 1) * 60)).padStart(2, '0')}</text>
</svg>`;
  const grain = await grainOf(index % GRAINS);
  // Like the MEDIUM level svc-imaging stores.
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width: WIDTH, height: HEIGHT, channels: 3 }, blend: 'soft-light' }])
    .removeAlpha()
    .jpeg({ quality: 80, progressive: true })
    .toBuffer();
}

/** CPU seconds of a child process, sampled until it exits (its /proc entry goes with it). */
function sampleCpu(pid: number): () => number {
  let last = 0;
  const timer = setInterval(() => {
    last = Math.max(last, cpuSecondsOf(pid));
  }, 5);
  return () => {
    clearInterval(timer);
    return last;
  };
}

/** svc-imaging's encoder: frames read one by one from files and piped to ffmpeg; CPU of both processes. */
async function portalEncode(dir: string, frames: number): Promise<{ cpu: number; bytes: number }> {
  let ffmpegCpu: () => number = () => 0;
  const node = process.cpuUsage();
  const clip = await encodeTimelapse(frames, (i) => readFile(join(dir, `${String(i).padStart(4, '0')}.jpg`)), {
    width: WIDTH,
    height: HEIGHT,
    onStart: (pid) => {
      ffmpegCpu = sampleCpu(pid);
    },
  });
  const used = process.cpuUsage(node);
  return { cpu: ffmpegCpu() + (used.user + used.system) / 1e6, bytes: clip.length };
}

/** The same encoder settings on the command line, reading the JPEG files itself. */
async function baselineEncode(dir: string, frames: number): Promise<number> {
  const output = join(dir, 'baseline.mp4');
  const input = ['-start_number', '0', '-i', join(dir, '%04d.jpg'), '-frames:v', String(frames)];
  const ffmpeg = spawn(FFMPEG_PATH, ffmpegArguments(input, output, { width: WIDTH, height: HEIGHT }), {
    stdio: 'ignore',
  });
  const cpu = sampleCpu(ffmpeg.pid as number);
  const code = await new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));
  if (code !== 0) throw new Error(`ffmpeg baseline failed (${code})`);
  return cpu();
}

/** Seconds of one core per 100 frames at 1280 px, and the bytes of a day's clip (288 frames). */
export async function timelapse(): Promise<ResultRow[]> {
  const dir = await ensureResultsDir('timelapse');
  for (let i = 0; i < DAY_FRAMES; i++)
    await writeFile(join(dir, `${String(i).padStart(4, '0')}.jpg`), await dayFrame(i));
  log(`time-lapse: ${DAY_FRAMES} frames of ${WIDTH}×${HEIGHT} written`);
  await portalEncode(dir, 10);
  await baselineEncode(dir, 10);
  const portal: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    if (i % 2) baseline.push(await baselineEncode(dir, MEASURED_FRAMES));
    portal.push((await portalEncode(dir, MEASURED_FRAMES)).cpu);
    if (!(i % 2)) baseline.push(await baselineEncode(dir, MEASURED_FRAMES));
  }
  const day = await portalEncode(dir, DAY_FRAMES);
  await rm(dir, { recursive: true, force: true });
  const cpu = { portal: median(portal), baseline: median(baseline) };
  log(
    `time-lapse: ${cpu.portal.toFixed(2)} s vs ${cpu.baseline.toFixed(2)} s CPU per 100 frames; a day ${day.bytes} bytes`,
  );
  const common = { benchmark: 'timelapse', baselineLabel: 'ffmpeg from files' };
  return [
    row({
      ...common,
      case: `${MEASURED_FRAMES} frames at ${WIDTH} px, H.264`,
      metric: 'CPU seconds per 100 frames',
      unit: 's',
      portal: cpu.portal,
      baseline: cpu.baseline,
    }),
    row({
      ...common,
      case: `a day: ${DAY_FRAMES} frames at ${WIDTH} px`,
      metric: 'clip size',
      unit: 'MB',
      portal: day.bytes / 1e6,
      baseline: null,
      target: '≤ 3 MB',
      verdict: verdict(day.bytes <= SIZE_BUDGET),
      note: `${(DAY_FRAMES / 12).toFixed(0)} s at 12 fps, full-day CPU ${day.cpu.toFixed(1)} s`,
    }),
  ];
}
