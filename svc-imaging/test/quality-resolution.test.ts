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
    { userId: null, quality: 'LOW' },
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
    ).toBe('all other users');
    expect(resolveImageQuality(access, caller({ referer: 'https://partner.example/other' })).reason).toBe(
      'all other users',
    );
    expect(resolveImageQuality(access, caller({ referer: 'https://evil.example/see' })).reason).toBe('all other users');
    expect(resolveImageQuality(access, caller({ referer: 'https://partner.example/seex' })).reason).toBe(
      'all other users',
    );
  });

  it('then the configuration for all other users, else POOR', () => {
    expect(resolveImageQuality(access, caller({ userId: 'someone-else' }))).toMatchObject({
      quality: 'LOW',
      reason: 'all other users',
    });
    expect(resolveImageQuality(undefined, caller())).toMatchObject({ quality: 'POOR', reason: 'default' });
    expect(resolveImageQuality({ configurations: [], bookings: [] }, caller())).toMatchObject({
      quality: 'POOR',
      reason: 'default',
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
});
