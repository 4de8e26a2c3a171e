import { describe, expect, it } from 'vitest';
import { loginPathReturningTo, safeReturnUrl } from '../src/navigation/return-url.ts';

describe('safeReturnUrl', () => {
  it.each([
    ['/user', '/user'],
    ['/webcam/Stafa?x=1#top', '/webcam/Stafa?x=1#top'],
    ['/impersonate', '/impersonate'],
  ])('keeps the site path %s', (value, expected) => {
    expect(safeReturnUrl(value)).toBe(expected);
  });

  it.each([null, '', 'user', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)'])(
    'falls back to / for %s',
    (value) => {
      expect(safeReturnUrl(value)).toBe('/');
    },
  );
});

describe('loginPathReturningTo', () => {
  it('puts the path into returnUrl', () => {
    expect(loginPathReturningTo('/user')).toBe('/login?returnUrl=/user');
    expect(loginPathReturningTo('/a?b=1&c=2')).toBe('/login?returnUrl=/a%3Fb%3D1%26c%3D2');
    expect(safeReturnUrl(new URLSearchParams('returnUrl=/a%3Fb%3D1%26c%3D2').get('returnUrl'))).toBe('/a?b=1&c=2');
  });
});
