import type { Quality } from '@lakecams/contracts';

/**
 * Width of each quality level; FULL keeps the original. Each step roughly doubles the pixels,
 * so a level is visibly better than the one below.
 */
export const QUALITY_WIDTHS: Readonly<Record<Exclude<Quality, 'FULL'>, number>> = {
  POOR: 480,
  LOW: 800,
  MEDIUM: 1280,
  HIGH: 1920,
};
export const JPEG_QUALITY = 80;
