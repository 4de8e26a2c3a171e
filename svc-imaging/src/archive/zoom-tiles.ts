import { isValidCameraName, QUALITIES, type Quality } from '@lakecams/contracts';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { checkedNames, removeDaysBefore } from '../store/image-store.ts';
import { JPEG_QUALITY } from '../store/quality.ts';

/** 254 + 1 px overlap on each side makes 256 px tiles, the size OpenSeadragon and Deep Zoom expect. */
export const ZOOM_TILE_SIZE = 254;
export const ZOOM_TILE_OVERLAP = 1;
const DESCRIPTOR = 'zoom.dzi';

export interface ZoomPicture {
  width: number;
  height: number;
}

/** The Deep Zoom level holding the picture at full size; level 0 is 1×1 px. */
export function deepestZoomLevel({ width, height }: ZoomPicture): number {
  return Math.ceil(Math.log2(Math.max(width, height, 1)));
}

/** Columns and rows of tiles at a level, or null when the picture has no such level. */
export function tileGrid(picture: ZoomPicture, level: number): { columns: number; rows: number } | null {
  const deepest = deepestZoomLevel(picture);
  if (!Number.isInteger(level) || level < 0 || level > deepest) return null;
  const scale = 2 ** (deepest - level);
  const width = Math.ceil(picture.width / scale);
  const height = Math.ceil(picture.height / scale);
  return { columns: Math.ceil(width / ZOOM_TILE_SIZE), rows: Math.ceil(height / ZOOM_TILE_SIZE) };
}

/** `3_4.jpg` → column 3, row 4 when the level has that tile; null otherwise. */
export function tileAt(picture: ZoomPicture, level: number, file: string): { column: number; row: number } | null {
  const match = /^(\d{1,4})_(\d{1,4})\.jpg$/.exec(file);
  const grid = tileGrid(picture, level);
  if (!match || !grid) return null;
  const column = Number(match[1]);
  const row = Number(match[2]);
  return column < grid.columns && row < grid.rows ? { column, row } : null;
}

/** The descriptor OpenSeadragon reads; tiles are named `.jpg` like every picture we serve. */
export function deepZoomDescriptor({ width, height }: ZoomPicture): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="jpg" Overlap="${ZOOM_TILE_OVERLAP}" TileSize="${ZOOM_TILE_SIZE}">
  <Size Width="${width}" Height="${height}"/>
</Image>
`;
}

/**
 * The one address of a picture's descriptor at a level, or of one of its tiles: numbers in decimal without
 * leading zeros, the level as the only query (docs/decisions.md, "One address per picture").
 */
export function zoomAddress(
  picture: { camera: string; moment: string; level: Quality },
  tile?: { zoomLevel: number; column: number; row: number },
): string {
  const file = tile ? `_files/${tile.zoomLevel}/${tile.column}_${tile.row}.jpg` : '.dzi';
  return `/api/Image/Zoom/camera/${picture.camera}/${picture.moment}${file}?level=${picture.level}`;
}

export const isQuality = (level: string): level is Quality => (QUALITIES as readonly string[]).includes(level);

export interface ZoomTiles {
  root: string;
  /** Tiles of one capture at one level, made on first use (once however many ask at the same time). */
  tilesOf(
    key: { camera: string; imageName: string; quality: Quality; version: string },
    picture: () => Promise<Buffer | null>,
  ): Promise<(ZoomPicture & { folder: string }) | null>;
  readTile(folder: string, level: number, tile: { column: number; row: number }): Promise<Buffer | null>;
  /** Like the image store: whole days older than `keepFromDay` (yyyyMMdd) go. */
  pruneDaysBefore(keepFromDay: string): Promise<number>;
  removeCamera(camera: string): Promise<void>;
}

/**
 * Deep-zoom tiles on local disk, `<root>/<camera>/<yyyyMMdd>/<yyyyMMddHHmm>-<QUALITY>-<version>/`: a cache
 * each replica fills itself, whichever store holds the pictures. `version` follows the picture's content,
 * so an upload replacing a minute gets new tiles.
 */
export function createZoomTiles(root: string): ZoomTiles {
  const making = new Map<string, Promise<(ZoomPicture & { folder: string }) | null>>();
  const sizeOf = async (folder: string): Promise<ZoomPicture | null> => {
    const xml = await readFile(join(folder, DESCRIPTOR), 'utf8').catch(() => null);
    const width = Number(/Width="(\d+)"/.exec(xml ?? '')?.[1]);
    const height = Number(/Height="(\d+)"/.exec(xml ?? '')?.[1]);
    return width > 0 && height > 0 ? { width, height } : null;
  };

  async function make(folder: string, picture: () => Promise<Buffer | null>) {
    const known = await sizeOf(folder);
    if (known) return { ...known, folder };
    const bytes = await picture();
    if (!bytes) return null;
    // Made aside and renamed, so a reader (or another replica on this disk) never sees half the tiles.
    const making = `${folder}.${process.pid}.tmp`;
    await rm(making, { recursive: true, force: true });
    await mkdir(making, { recursive: true });
    try {
      const info = await sharp(bytes)
        .jpeg({ quality: JPEG_QUALITY })
        .tile({ size: ZOOM_TILE_SIZE, overlap: ZOOM_TILE_OVERLAP, layout: 'dz' })
        .toFile(join(making, 'zoom.dz'));
      await rename(making, folder).catch(async (error: NodeJS.ErrnoException) => {
        if (!(await sizeOf(folder))) throw error;
      });
      return { width: info.width, height: info.height, folder };
    } finally {
      await rm(making, { recursive: true, force: true });
    }
  }

  return {
    root,
    async tilesOf({ camera, imageName, quality, version }, picture) {
      checkedNames(camera, imageName);
      const day = join(root, camera, imageName.slice(0, 8));
      const folder = join(day, `${imageName}-${quality}-${version.replace(/[^0-9a-f]/gi, '').slice(0, 16)}`);
      let pending = making.get(folder);
      if (!pending) {
        pending = mkdir(day, { recursive: true })
          .then(() => make(folder, picture))
          .finally(() => making.delete(folder));
        making.set(folder, pending);
      }
      return pending;
    },
    readTile: (folder, level, { column, row }) =>
      readFile(join(folder, 'zoom_files', String(level), `${column}_${row}.jpeg`)).catch(() => null),
    pruneDaysBefore: (keepFromDay) => removeDaysBefore(root, keepFromDay),
    async removeCamera(camera) {
      if (isValidCameraName(camera)) await rm(join(root, camera), { recursive: true, force: true });
    },
  };
}
