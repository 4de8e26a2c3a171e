import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * Renders the shell's PNG icons from its favicon.svg (`node scripts/render-site-icons.ts`); the PNGs are
 * committed, so builds need no image tools.
 */
export const SITE_ICON_SIZES = {
  'favicon.png': 48,
  'apple-touch-icon.png': 180,
  'icon-192.png': 192,
  'icon-512.png': 512,
};
const publicDir = join(import.meta.dirname, '..', 'shell', 'public');

export async function renderSiteIcon(svg: Buffer, size: number): Promise<Buffer> {
  return sharp(svg, { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
}

if (import.meta.main) {
  const svg = await readFile(join(publicDir, 'favicon.svg'));
  for (const [file, size] of Object.entries(SITE_ICON_SIZES)) {
    await writeFile(join(publicDir, file), await renderSiteIcon(svg, size));
  }
}
