import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The static ffmpeg (with libx264) that npm installs inside @ffmpeg-installer/linux-x64; nothing is downloaded. */
export const FFMPEG_PATH = join(
  dirname(createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json')),
  'ffmpeg',
);

/** 288 five-minute captures play in 24 s: slow enough to follow the clouds, short enough to watch. */
export const TIMELAPSE_FPS = 12;
/** A day at 5-minute captures (288 frames) fits in 3 MB: the rate cap is that budget spread over the clip. */
export const TIMELAPSE_MAX_BITRATE = '960k';
export const TIMELAPSE_CRF = 28;

export interface TimelapseEncoding {
  width: number;
  height: number;
  fps?: number;
  /** Called after each frame handed to the encoder (frames done so far). */
  onProgress?: (done: number) => void;
  /** The encoder process started (the benchmark reads its CPU time). */
  onStart?: (pid: number) => void;
}

/** Even width and height (H.264 with 4:2:0 needs them) of a clip at most `maxWidth` wide, keeping the frame's aspect. */
export function clipSize(frameWidth: number, frameHeight: number, maxWidth: number): { width: number; height: number } {
  const width = Math.max(2, Math.floor(Math.min(frameWidth, maxWidth) / 2) * 2);
  const height = Math.max(2, Math.round((width * frameHeight) / frameWidth / 2) * 2);
  return { width, height };
}

export function ffmpegArguments(input: string[], output: string, encoding: TimelapseEncoding): string[] {
  const { width, height, fps = TIMELAPSE_FPS } = encoding;
  return [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-framerate', String(fps)],
    ...input,
    ...['-vf', `scale=${width}:${height}:flags=bicubic,format=yuv420p`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(TIMELAPSE_CRF)],
    ...['-maxrate', TIMELAPSE_MAX_BITRATE, '-bufsize', '1920k', '-threads', '1'],
    // Metadata first, so a browser starts playing before the whole file is in.
    ...['-movflags', '+faststart', '-an', output],
  ];
}

/**
 * Encode JPEG frames into an H.264 MP4 (plays in every browser). Frames are piped one by one, so
 * a day's pictures never sit in memory together; null frames (no longer stored) are left out.
 */
export async function encodeTimelapse(
  frameCount: number,
  readFrame: (index: number) => Promise<Buffer | null>,
  encoding: TimelapseEncoding,
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'lakecams-timelapse-'));
  const output = join(dir, 'clip.mp4');
  try {
    const ffmpeg = spawn(
      FFMPEG_PATH,
      ffmpegArguments(['-f', 'image2pipe', '-c:v', 'mjpeg', '-i', '-'], output, encoding),
      {
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    if (ffmpeg.pid) encoding.onStart?.(ffmpeg.pid);
    let errors = '';
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    const exited = new Promise<number>((resolve, reject) => {
      ffmpeg.on('error', reject);
      ffmpeg.on('close', (code) => resolve(code ?? -1));
    });
    // ffmpeg closing its input early (a broken frame) shows in its exit code, not as a write error.
    ffmpeg.stdin.on('error', () => {});
    try {
      for (let index = 0; index < frameCount; index++) {
        const frame = await readFrame(index);
        if (frame && !ffmpeg.stdin.destroyed) {
          if (!ffmpeg.stdin.write(frame)) {
            await new Promise<void>((resolve) => {
              const done = () => {
                ffmpeg.stdin.off('drain', done);
                ffmpeg.off('close', done);
                resolve();
              };
              ffmpeg.stdin.once('drain', done);
              ffmpeg.once('close', done);
            });
          }
        }
        encoding.onProgress?.(index + 1);
      }
    } finally {
      ffmpeg.stdin.end();
    }
    const code = await exited;
    if (code !== 0) throw new Error(`ffmpeg failed (${code}): ${errors.trim() || 'no message'}`);
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
