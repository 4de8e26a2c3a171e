import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { captureTimeOf, exifDateTime } from '../src/capture/capture-time.ts';
import { slotOf } from '../src/capture/picture-ingest.ts';
import { pushSecretOf } from '../src/routes/api/Image/push.ts';

async function exifOf(exif: Parameters<ReturnType<typeof sharp>['withExif']>[0]) {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } })
    .withExif(exif)
    .jpeg()
    .toBuffer();
  return (await sharp(jpeg).metadata()).exif as Buffer;
}

describe('when a pushed picture was taken', () => {
  it('reads DateTimeOriginal as Zurich time, winter and summer, and an explicit offset', async () => {
    expect(exifDateTime(await exifOf({ IFD2: { DateTimeOriginal: '2026:11:27 08:15:30' } }))?.toISOString()).toBe(
      '2026-11-27T07:15:30.000Z',
    );
    expect(exifDateTime(await exifOf({ IFD2: { DateTimeOriginal: '2026:07:01 12:30:05' } }))?.toISOString()).toBe(
      '2026-07-01T10:30:05.000Z',
    );
    const offset = await exifOf({ IFD2: { DateTimeOriginal: '2026:07:01 12:30:05', OffsetTimeOriginal: '+00:00' } });
    expect(exifDateTime(offset)?.toISOString()).toBe('2026-07-01T12:30:05.000Z');
    // Without DateTimeOriginal, IFD0's DateTime.
    expect(exifDateTime(await exifOf({ IFD0: { DateTime: '2026:11:27 08:15:00' } }))?.toISOString()).toBe(
      '2026-11-27T07:15:00.000Z',
    );
    expect(exifDateTime(Buffer.from('Exif\0\0nonsense'))).toBeNull();
  });

  it('takes the arrival time when the EXIF time is missing or implausible', async () => {
    const arrived = new Date('2026-11-27T07:20:00Z');
    const exif = await exifOf({ IFD2: { DateTimeOriginal: '2026:11:27 08:15:30' } });
    expect(captureTimeOf(exif, arrived).toISOString()).toBe('2026-11-27T07:15:30.000Z');
    expect(captureTimeOf(undefined, arrived)).toBe(arrived);
    // A camera clock an hour ahead, or one still in 2019.
    expect(captureTimeOf(exif, new Date('2026-11-27T06:00:00Z')).toISOString()).toBe('2026-11-27T06:00:00.000Z');
    const old = await exifOf({ IFD2: { DateTimeOriginal: '2019:01:01 00:00:00' } });
    expect(captureTimeOf(old, arrived)).toBe(arrived);
  });

  it('files a picture under the start of its interval, as the schedule names its ticks', () => {
    expect(slotOf(new Date('2026-11-27T07:14:59Z'), 5).toISOString()).toBe('2026-11-27T07:10:00.000Z');
    expect(slotOf(new Date('2026-11-27T07:14:59Z'), 1).toISOString()).toBe('2026-11-27T07:14:00.000Z');
    expect(slotOf(new Date('2026-11-27T07:59:00Z'), 60).toISOString()).toBe('2026-11-27T07:00:00.000Z');
  });
});

describe('the secret a pushing camera sends', () => {
  it('is the Bearer token, or the Basic password with the camera as user', () => {
    expect(pushSecretOf('Bearer abc', 'Steg')).toBe('abc');
    expect(pushSecretOf(`Basic ${Buffer.from('Steg:abc').toString('base64')}`, 'Steg')).toBe('abc');
    expect(pushSecretOf(`Basic ${Buffer.from('Andere:abc').toString('base64')}`, 'Steg')).toBeNull();
    expect(pushSecretOf(undefined, 'Steg')).toBeNull();
    expect(pushSecretOf('Digest x', 'Steg')).toBeNull();
  });
});
