import { describe, expect, it } from 'vitest';
import {
  type CameraAccess,
  type ImageCaller,
  refererMatches,
  resolveImageQuality,
} from '../src/delivery/quality-resolution.ts';

const USER = 'user-1';
const access: CameraAccess = {
  configurations: [
    { userId: USER, quality: 'FULL' },
    { userId: null, quality: 'HIGH' },
  ],
  bookings: [{ url: 'https://partner.example/see', start: '2026-11-01', end: '2026-11-30', quality: 'HIGH' }],
};
const caller = (overrides: Partial<ImageCaller> = {}): ImageCaller => ({
  userId: null,
  roles: [],
  referer: null,
  today: '2026-11-22',
  ...overrides,
});

describe('resolveImageQuality, rule by rule in order of precedence', () => {
  it('takes the caller’s own configuration first, even on a booked page', () => {
    expect(resolveImageQuality(access, caller({ userId: USER, referer: 'https://partner.example/see' }))).toMatchObject(
      {
        quality: 'FULL',
        reason: 'own configuration',
      },
    );
  });

  it('then a booking of the embedding page that covers today', () => {
    expect(resolveImageQuality(access, caller({ referer: 'https://partner.example/see/heute?x=1' }))).toMatchObject({
      quality: 'HIGH',
      reason: 'referer booking',
    });
  });

  it('ignores a booking outside its days or for another page', () => {
    expect(
      resolveImageQuality(access, caller({ referer: 'https://partner.example/see', today: '2026-12-01' })).reason,
    ).toBe('default');
    expect(resolveImageQuality(access, caller({ referer: 'https://partner.example/other' })).reason).toBe('default');
    expect(resolveImageQuality(access, caller({ referer: 'https://evil.example/see' })).reason).toBe('default');
    expect(resolveImageQuality(access, caller({ referer: 'https://partner.example/seex' })).reason).toBe('default');
  });

  it('then, for a signed-in user, the configuration for all other users; anonymous visitors get POOR', () => {
    expect(resolveImageQuality(access, caller({ userId: 'someone-else' }))).toMatchObject({
      quality: 'HIGH',
      reason: 'all other users',
    });
    // An anonymous visitor is none of "all other users".
    expect(resolveImageQuality(access, caller())).toMatchObject({ quality: 'POOR', reason: 'default' });
    expect(resolveImageQuality(undefined, caller())).toMatchObject({ quality: 'POOR', reason: 'default' });
    expect(resolveImageQuality({ configurations: [], bookings: [] }, caller())).toMatchObject({
      quality: 'POOR',
      reason: 'default',
    });
  });

  it('gives signed-in users at least LOW everywhere, even below their own configuration', () => {
    expect(resolveImageQuality(undefined, caller({ userId: 'u' }))).toMatchObject({
      quality: 'LOW',
      reason: 'default',
    });
    const poorForUser: CameraAccess = { configurations: [{ userId: 'u', quality: 'POOR' }], bookings: [] };
    expect(resolveImageQuality(poorForUser, caller({ userId: 'u' }))).toMatchObject({
      quality: 'LOW',
      reason: 'own configuration',
    });
  });

  it('gives Premium users at least MEDIUM, never less than they would get', () => {
    expect(resolveImageQuality(undefined, caller({ userId: 'p', roles: ['Premium'] })).quality).toBe('MEDIUM');
    expect(resolveImageQuality(access, caller({ userId: USER, roles: ['Premium'] })).quality).toBe('FULL');
  });

  it('matches booked pages by origin and path prefix', () => {
    expect(refererMatches('https://partner.example/', 'https://partner.example/any/page')).toBe(true);
    expect(refererMatches('https://partner.example/see', 'http://partner.example/see')).toBe(false);
    expect(refererMatches('not a url', 'https://partner.example/')).toBe(false);
  });

  describe('a Referer cut to its origin, as browsers send it across origins by default', () => {
    const seeblick = {
      url: 'http://127.0.0.1:8399/seeblick/',
      start: '2026-11-01',
      end: '2026-11-30',
      quality: 'HIGH',
    } as const;
    const origin = 'http://127.0.0.1:8399/';

    it("gets the origin's booking when it is the origin's only booked page for the camera", () => {
      const resolved = resolveImageQuality({ ...access, bookings: [seeblick] }, caller({ referer: origin }));
      expect(resolved).toMatchObject({ quality: 'HIGH', reason: 'referer booking' });
      // Its url, not the Referer, names the layers drawn in.
      expect(resolved.booking?.url).toBe(seeblick.url);
      expect(
        resolveImageQuality({ ...access, bookings: [seeblick] }, caller({ referer: 'http://127.0.0.1:8399' })).reason,
      ).toBe('referer booking');
    });

    it('gets the public level when the origin has several booked pages: the origin alone does not say which', () => {
      const bookings = [seeblick, { ...seeblick, url: 'http://127.0.0.1:8399/hafen', quality: 'FULL' as const }];
      expect(resolveImageQuality({ ...access, bookings }, caller({ referer: origin }))).toMatchObject({
        quality: 'POOR',
        reason: 'default',
        booking: null,
      });
      // The full address (the snippet's referrer policy sends it) still finds each page's own booking.
      expect(
        resolveImageQuality({ ...access, bookings }, caller({ referer: 'http://127.0.0.1:8399/hafen' })).quality,
      ).toBe('FULL');
      // The same page booked twice is still one page.
      const renewed = [seeblick, { ...seeblick, start: '2026-11-20' }];
      expect(resolveImageQuality({ ...access, bookings: renewed }, caller({ referer: origin })).quality).toBe('HIGH');
    });

    it('counts only bookings covering today, and never another origin', () => {
      const expired = { ...seeblick, url: 'http://127.0.0.1:8399/hafen', end: '2026-11-10' };
      expect(
        resolveImageQuality({ ...access, bookings: [seeblick, expired] }, caller({ referer: origin })).quality,
      ).toBe('HIGH');
      for (const referer of ['http://127.0.0.2:8399/', 'https://127.0.0.1:8399/', 'http://127.0.0.1:8400/']) {
        expect(resolveImageQuality({ ...access, bookings: [seeblick] }, caller({ referer })).reason).toBe('default');
      }
    });

    it('keeps a full address exact: another path of the origin, or the origin with a query, is not the booked page', () => {
      for (const referer of [
        'http://127.0.0.1:8399/other',
        'http://127.0.0.1:8399/?seeblick',
        'http://127.0.0.1:8399/seeblickx',
      ]) {
        expect(resolveImageQuality({ ...access, bookings: [seeblick] }, caller({ referer })).reason).toBe('default');
      }
      expect(
        resolveImageQuality({ ...access, bookings: [seeblick] }, caller({ referer: `${seeblick.url}heute` })).quality,
      ).toBe('HIGH');
    });

    it('prefers the most specific booked page when a booking for the whole site matches too', () => {
      const site = { ...seeblick, url: 'http://127.0.0.1:8399/', quality: 'LOW' as const };
      for (const bookings of [
        [site, seeblick],
        [seeblick, site],
      ]) {
        expect(resolveImageQuality({ ...access, bookings }, caller({ referer: `${seeblick.url}heute` })).quality).toBe(
          'HIGH',
        );
        // The origin alone is the site's root page, which the whole-site booking covers.
        expect(resolveImageQuality({ ...access, bookings }, caller({ referer: origin })).booking?.url).toBe(site.url);
      }
    });
  });
});
