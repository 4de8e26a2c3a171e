import { describe, expect, it } from 'vitest';
import { isUnexpired, refreshDelay, tokenExpiresAt } from '../src/index.ts';
import { accessToken, NOW } from './fixtures.ts';

const expiringIn = (seconds: number) => accessToken({ exp: NOW / 1000 + seconds });

describe('access token timing', () => {
  it('reads exp from the JWT payload', () => {
    expect(tokenExpiresAt(expiringIn(900))).toBe(NOW + 900_000);
    expect(tokenExpiresAt('not-a-jwt')).toBeNull();
    expect(tokenExpiresAt('a.e30.c')).toBeNull();
  });

  it('refreshes 60 s before expiry', () => {
    expect(refreshDelay(expiringIn(900), NOW)).toBe(840_000);
    expect(refreshDelay(expiringIn(121), NOW)).toBe(61_000);
  });

  it('refreshes a short-lived token at half its life, never sooner than 5 s', () => {
    expect(refreshDelay(expiringIn(60), NOW)).toBe(30_000);
    expect(refreshDelay(expiringIn(4), NOW)).toBe(5_000);
    expect(refreshDelay(expiringIn(-30), NOW)).toBe(5_000);
  });

  it('has no refresh time for a token without exp', () => {
    expect(refreshDelay('a.e30.c', NOW)).toBeNull();
  });

  it('tells an expired token from a usable one', () => {
    expect(isUnexpired(expiringIn(1), NOW)).toBe(true);
    expect(isUnexpired(expiringIn(0), NOW)).toBe(false);
    expect(isUnexpired('a.e30.c', NOW)).toBe(true);
  });
});
