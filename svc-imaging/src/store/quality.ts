export { QUALITY_WIDTHS } from '@lakecams/contracts';
export const JPEG_QUALITY = 80;
