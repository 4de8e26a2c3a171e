import { EMPTY_AUTH_STATE, type AuthState } from '@lakecams/session';
import { testUser, testUserSummary } from '@lakecams/session/testing';
import { describe, expect, it } from 'vitest';
import { menuEntries, SOCIAL_LINK } from '../src/chrome/header-menu.ts';

const alice = testUser();
const bob = testUserSummary({ id: '6d1f1c9e-0000-4000-8000-000000000002', userName: 'bobbob' });

function state(overrides: Partial<AuthState>): AuthState {
  return { ...EMPTY_AUTH_STATE, ...overrides };
}

const signedIn = (overrides: Partial<AuthState> = {}) =>
  state({ user: alice, applicationUser: testUserSummary(), ...overrides });

const hrefs = (s: AuthState) => menuEntries(s).map((entry) => (entry.kind === 'logout' ? 'logout' : entry.href));

describe('header menu, by authentication state and role', () => {
  it('anonymous: Register and Log on, no profile, no log off', () => {
    expect(hrefs(EMPTY_AUTH_STATE)).toEqual(['/webcams', '/bestof', '/register', '/login', SOCIAL_LINK.href]);
  });

  it('confirmed email: My Profile and Log off instead of Register and Log on', () => {
    expect(hrefs(signedIn())).toEqual(['/webcams', '/bestof', '/user', 'logout', SOCIAL_LINK.href]);
  });

  it('email not confirmed: Register and Log on, even when signed in', () => {
    const unconfirmed = signedIn({ user: testUser({ emailConfirmed: false }) });
    expect(hrefs(unconfirmed)).toEqual(['/webcams', '/bestof', '/register', '/login', SOCIAL_LINK.href]);
  });

  it('Camera setup only with referers, or for admins', () => {
    expect(hrefs(signedIn())).not.toContain('/edit/referer/cameras');
    expect(hrefs(signedIn({ hasReferes: true }))).toContain('/edit/referer/cameras');
  });

  it('admin: Impersonate, Jobs, Edit Webcams, Edit Referers and the codes of all users', () => {
    const admin = hrefs(signedIn({ isAdmin: true, roles: ['Admin'] }));
    expect(admin).toEqual([
      '/webcams',
      '/bestof',
      '/edit/referer/cameras',
      '/impersonate',
      '/jobs',
      '/edit/webcams',
      '/edit/referers',
      '/edit/codes',
      '/user',
      'logout',
      SOCIAL_LINK.href,
    ]);
  });

  it('non-admin: none of the admin entries', () => {
    const user = hrefs(signedIn({ roles: ['Premium'] }));
    for (const href of ['/impersonate', '/jobs', '/edit/webcams', '/edit/referers', '/edit/codes']) {
      expect(user).not.toContain(href);
    }
  });

  it('Impersonate also while acting as another user, without the admin entries', () => {
    const impersonating = hrefs(signedIn({ applicationUser: bob, isAdmin: false }));
    expect(impersonating).toContain('/impersonate');
    expect(impersonating).not.toContain('/jobs');
  });

  it('always ends with the social media link, opening the portal page', () => {
    for (const s of [EMPTY_AUTH_STATE, signedIn({ isAdmin: true })]) {
      expect(menuEntries(s).at(-1)).toEqual(SOCIAL_LINK);
    }
    expect(SOCIAL_LINK.href).toMatch(/^https:\/\/www\.instagram\.com\/seecam\.zuerichsee\/$/);
  });
});
