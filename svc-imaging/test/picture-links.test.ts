import { describe, expect, it } from 'vitest';
import {
  checkSignature,
  contentPart,
  layersPart,
  pagePart,
  parsePicturePath,
  type PictureLink,
  picturePath,
  SIGNED_LINK_WINDOW_S,
  signedQuery,
} from '../src/delivery/picture-links.ts';

const SECRET = 'a-secret-shared-by-the-imaging-replicas';
const link: PictureLink = {
  camera: 'Richterswil',
  imageName: '202611250830',
  quality: 'HIGH',
  content: contentPart('0123456789abcdef0123'),
  encoding: 'avif',
};

describe('picture links', () => {
  it('names a picture by everything that decides its bytes, and reads the name back', () => {
    expect(picturePath(link)).toBe('/pictures/Richterswil/202611250830-HIGH-0123456789ab.avif');
    const layered = {
      ...link,
      encoding: 'jpeg' as const,
      layers: { page: pagePart('https://partner.example/'), key: layersPart('b1.abc') },
    };
    const path = picturePath(layered);
    expect(path).toMatch(/^\/pictures\/Richterswil\/202611250830-HIGH-0123456789ab-p[0-9a-f]{12}-[0-9a-f]{12}\.jpg$/);
    expect(parsePicturePath('Richterswil', path.split('/').at(-1) as string)).toEqual(layered);
  });

  it('refuses names that are not pictures', () => {
    for (const file of [
      '202611250830-HIGH-0123456789ab.png',
      '2026112508-HIGH-0123456789ab.jpg',
      '202611250830-BEST-0123456789ab.jpg',
      '../x.jpg',
    ])
      expect(parsePicturePath('Richterswil', file), file).toBeNull();
    expect(parsePicturePath('../etc', '202611250830-HIGH-0123456789ab.jpg')).toBeNull();
  });

  it('signs a link that stays the same within its window and expires one to two windows later', () => {
    const path = picturePath(link);
    const start = Date.UTC(2026, 10, 25, 8, 0, 0);
    const first = signedQuery(SECRET, path, start);
    expect(signedQuery(SECRET, path, start + (SIGNED_LINK_WINDOW_S - 1) * 1000)).toEqual(first);
    expect(first.expires * 1000 - start).toBe(2 * SIGNED_LINK_WINDOW_S * 1000);
    const query = Object.fromEntries(new URLSearchParams(first.query));
    expect(checkSignature(SECRET, path, query, start)).toEqual({ valid: true, expires: first.expires });
    expect(checkSignature(SECRET, path, query, first.expires * 1000)).toEqual({ valid: false, reason: 'expired' });
  });

  it('refuses a missing, forged or transplanted signature', () => {
    const path = picturePath(link);
    const query = Object.fromEntries(new URLSearchParams(signedQuery(SECRET, path).query));
    expect(checkSignature(SECRET, path, {})).toEqual({ valid: false, reason: 'missing' });
    expect(checkSignature('another-secret', path, query)).toEqual({ valid: false, reason: 'forged' });
    expect(checkSignature(SECRET, path, { ...query, e: String(Number(query.e) + 600) })).toEqual({
      valid: false,
      reason: 'forged',
    });
    expect(checkSignature(SECRET, picturePath({ ...link, quality: 'FULL', encoding: 'jpeg' }), query)).toEqual({
      valid: false,
      reason: 'forged',
    });
    expect(checkSignature(SECRET, path, { ...query, e: 'soon' })).toEqual({ valid: false, reason: 'forged' });
  });
});
