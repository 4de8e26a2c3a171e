import { describe, expect, it } from 'vitest';
import { negotiatePictureFormat, pictureFormatFor } from '../src/delivery/picture-format.ts';

describe('negotiatePictureFormat', () => {
  it.each([
    // What browsers send for <img>
    ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'avif'],
    ['image/webp,*/*', 'webp'],
    ['image/avif,image/webp,*/*', 'avif'],
    ['image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5', 'jpeg'],
  ])('%s → %s', (accept, format) => {
    expect(negotiatePictureFormat(accept)).toBe(format);
  });

  it('gives JPEG to clients that name no modern format, or none at all', () => {
    expect(negotiatePictureFormat(undefined)).toBe('jpeg');
    expect(negotiatePictureFormat('')).toBe('jpeg');
    expect(negotiatePictureFormat('*/*')).toBe('jpeg');
    expect(negotiatePictureFormat('image/*')).toBe('jpeg');
    expect(negotiatePictureFormat('image/jpeg')).toBe('jpeg');
  });

  it('follows q-values: the higher wins, AVIF before WebP when equal', () => {
    expect(negotiatePictureFormat('image/webp, image/avif;q=0.5')).toBe('webp');
    expect(negotiatePictureFormat('image/webp;q=0.7, image/avif;q=0.7')).toBe('avif');
    expect(negotiatePictureFormat('image/jpeg, image/webp;q=0.5')).toBe('jpeg');
    expect(negotiatePictureFormat('image/jpeg;q=0.5, image/webp;q=0.9')).toBe('webp');
    expect(negotiatePictureFormat('image/*;q=0.9, image/avif')).toBe('avif');
  });

  it('takes q=0 as a refusal, whatever else the header says', () => {
    expect(negotiatePictureFormat('image/avif;q=0, image/webp')).toBe('webp');
    expect(negotiatePictureFormat('image/avif;q=0, image/webp;q=0, */*')).toBe('jpeg');
  });

  it('reads case, spaces and other parameters; a malformed q-value is no preference', () => {
    expect(negotiatePictureFormat('  IMAGE/AVIF ; level=1 ;Q=0.9 , image/jpeg;q=0.8')).toBe('avif');
    expect(negotiatePictureFormat('image/webp;q=abc')).toBe('webp');
    expect(negotiatePictureFormat(',,;,image/webp')).toBe('webp');
  });
});

describe('pictureFormatFor', () => {
  it('serves FULL as the camera JPEG, the scaled levels as negotiated', () => {
    expect(pictureFormatFor('image/avif', 'FULL')).toBe('jpeg');
    expect(pictureFormatFor('image/avif', 'POOR')).toBe('avif');
    expect(pictureFormatFor('image/webp', 'HIGH')).toBe('webp');
  });
});
