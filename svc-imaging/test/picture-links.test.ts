import { describe, expect, it } from 'vitest';
import {
  checkSignature,
  contentPart,
  layersPart,
  pagePart,
  LOWEST_LEVEL_LIFETIME_S,
  PUBLIC_LEVEL_LIFETIME_S,
  parsePicturePath,
  pictureAddress,
  type PictureLink,
  picturePath,
  publicLifetime,
  SIGNED_LINK_WINDOW_S,
  signedLifetime,
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

  it('takes the expiry only in decimal digits, so a link has one URL', () => {
    const path = picturePath(link);
    const now = Date.UTC(2026, 10, 25, 8, 0, 0);
    const { query, expires } = signedQuery(SECRET, path, now);
    const s = new URLSearchParams(query).get('s') as string;
    expect(checkSignature(SECRET, path, { e: String(expires), s }, now).valid).toBe(true);
    for (const e of [`${expires}.0`, `0x${expires.toString(16)}`, `0${expires}`, `${expires / 100}e2`, ` ${expires}`])
      expect([e, checkSignature(SECRET, path, { e, s }, now)]).toEqual([e, { valid: false, reason: 'forged' }]);
  });

  it('writes the one address of a picture, the signed query as signedQuery writes it', () => {
    const path = picturePath(link);
    expect(pictureAddress(link, {})).toBe(path);
    expect(pictureAddress(link, { e: '1790000400', s: 'abc' })).toBe(`${path}?e=1790000400&s=abc`);
    // Any other way of writing the number comes out different from what was sent.
    for (const e of ['01790000400', '1790000400.0', '0x6AB1B590', '17900004e2'])
      expect(pictureAddress(link, { e, s: 'abc' })).not.toBe(`${path}?e=${e}&s=abc`);
    expect(pictureAddress(link, { s: 'abc' })).not.toBe(`${path}?s=abc`);
  });

  it('lets a test shorten the window; a link lives one to two windows', () => {
    const now = Date.UTC(2026, 10, 25, 8, 0, 1);
    const { expires } = signedQuery(SECRET, picturePath(link), now, 4);
    expect(expires).toBe((Math.floor(now / 4000) + 2) * 4);
    expect(expires * 1000 - now).toBeGreaterThan(4000);
    expect(expires * 1000 - now).toBeLessThanOrEqual(8000);
  });

  it('lets shared caches keep POOR for a year, a public level above it a day, a signed link no longer than it lives', () => {
    expect(publicLifetime('POOR')).toBe(LOWEST_LEVEL_LIFETIME_S);
    for (const level of ['LOW', 'MEDIUM', 'HIGH', 'FULL'] as const)
      expect(publicLifetime(level)).toBe(PUBLIC_LEVEL_LIFETIME_S);
    expect(PUBLIC_LEVEL_LIFETIME_S).toBe(86_400);
    // 1.5 s before the expiry: one whole second is left, never two.
    expect(signedLifetime(1000, 998_500)).toBe(1);
    expect(signedLifetime(1000, 999_001)).toBe(0);
    expect(signedLifetime(1000, 1_005_000)).toBe(0);
  });
});
