import type { LayerLevel } from '@lakecams/contracts';
import { layerCron } from '@lakecams/contracts/cron';
import type { Cron } from 'croner';
import sharp from 'sharp';
import { encodePicture, type PictureEncoding } from '../store/formats.ts';

export interface DrawableLayer {
  id: number;
  level: LayerLevel;
  cron: string;
  enabled: boolean;
  image: Buffer;
  imageHash: string;
}

export interface LayerSelection {
  base: DrawableLayer[];
  /** The advertisement whose turn it is on this image. */
  ad: DrawableLayer | null;
  /** Replaces the picture when the camera is offline. */
  offline: DrawableLayer | null;
}

/** `yyyyMMddHHmm` read as wall-clock fields; matched in UTC so the fields stay as they are. */
function wallClock(imageName: string): Date {
  const n = (from: number, to: number) => Number(imageName.slice(from, to));
  return new Date(Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8), n(8, 10), n(10, 12)));
}

const patterns = new Map<string, Cron | null>();
function cronMatches(pattern: string, at: Date): boolean {
  let cron = patterns.get(pattern);
  if (cron === undefined) {
    cron = layerCron(pattern);
    patterns.set(pattern, cron);
  }
  return cron?.match(at) ?? false;
}

/**
 * The layers drawn on one image: every enabled layer whose cron matches the image's time; of the
 * matching advertisements (TIME) one per image, in turn, so with N of them each shows on every Nth image.
 */
export function selectLayers(
  layers: readonly DrawableLayer[],
  imageName: string,
  intervalMin: number,
  cameraOffline: boolean,
): LayerSelection {
  const at = wallClock(imageName);
  const active = layers.filter((l) => l.enabled && cronMatches(l.cron, at)).sort((a, b) => a.id - b.id);
  const ads = active.filter((l) => l.level === 'TIME');
  const turn = Math.floor(at.getTime() / 60_000 / Math.max(1, intervalMin));
  return {
    base: active.filter((l) => l.level === 'BASE'),
    ad: ads.length > 0 ? (ads[turn % ads.length] ?? null) : null,
    offline: cameraOffline ? (active.find((l) => l.level === 'OFFLINE') ?? null) : null,
  };
}

export function isEmptySelection(selection: LayerSelection): boolean {
  return selection.base.length === 0 && selection.ad === null && selection.offline === null;
}

/** Identifies what a composed image is made of; part of the cache key and the ETag. */
export function selectionKey(selection: LayerSelection): string {
  const part = (l: DrawableLayer) => `${l.id}.${l.imageHash.slice(0, 12)}`;
  return [
    selection.offline ? `o${part(selection.offline)}` : '',
    ...selection.base.map((l) => `b${part(l)}`),
    selection.ad ? `t${part(selection.ad)}` : '',
  ]
    .filter(Boolean)
    .join('-');
}

/**
 * Draws the selected layers onto a picture. Layers are made for the camera's full image size (the
 * configure page shows it) and scale with the quality level; the offline layer fills the frame. The result is
 * encoded as the request negotiated.
 */
export async function composeLayers(
  picture: Buffer,
  fullWidth: number,
  selection: LayerSelection,
  encoding: PictureEncoding = 'jpeg',
): Promise<Buffer> {
  const { width = fullWidth, height = 1 } = await sharp(picture).metadata();
  const scale = width / Math.max(1, fullWidth);
  const canvas = selection.offline
    ? await sharp(selection.offline.image).resize(width, height, { fit: 'cover' }).flatten().toBuffer()
    : picture;
  const overlays = await Promise.all(
    [...selection.base, ...(selection.ad ? [selection.ad] : [])].map(async (layer) => {
      const meta = await sharp(layer.image).metadata();
      const input = await sharp(layer.image)
        .resize({
          width: Math.min(width, Math.max(1, Math.round((meta.width ?? width) * scale))),
          height: Math.min(height, Math.max(1, Math.round((meta.height ?? height) * scale))),
          fit: 'inside',
        })
        .png()
        .toBuffer();
      return { input, left: 0, top: 0 };
    }),
  );
  return encodePicture(sharp(canvas).composite(overlays), encoding, width).toBuffer();
}
