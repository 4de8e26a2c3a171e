import { QUALITIES } from '@lakecams/contracts';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { encodePicture, MODERN_ENCODINGS, variantSuffix, QUALITY_WIDTHS } from '@lakecams/svc-imaging/media';

/**
 * The capture benchmark's baseline: decode once, then each level below FULL in JPEG, AVIF and WebP straight
 * from the decoded pixels with the portal's encoder settings, and the original as FULL: the same files.
 */
export async function minimalSharpCapture(input: Buffer, dir: string): Promise<void> {
  const { data, info } = await sharp(input).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  await mkdir(dir, { recursive: true });
  await Promise.all([
    ...QUALITIES.flatMap((quality) =>
      quality === 'FULL'
        ? []
        : (['jpeg', ...MODERN_ENCODINGS] as const).map(async (encoding) => {
            const width = QUALITY_WIDTHS[quality];
            const bytes = await encodePicture(sharp(data, raw).resize({ width }), encoding, width).toBuffer();
            await writeFile(join(dir, variantSuffix(quality, encoding)), bytes);
          }),
    ),
    writeFile(join(dir, 'FULL.jpg'), input),
  ]);
}
