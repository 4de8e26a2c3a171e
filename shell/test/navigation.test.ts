import { SITE_NAME } from '@lakecams/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { syncPageWithPath } from '../src/navigation.ts';

describe('syncPageWithPath', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('replaces an unknown path with home, without a history entry', () => {
    window.history.pushState(null, '', '/no/such/page');
    const entries = window.history.length;
    syncPageWithPath();
    expect(window.location.pathname).toBe('/');
    expect(window.history.length).toBe(entries);
  });

  it('sets the title of a known path and leaves the path alone', () => {
    window.history.pushState(null, '', '/contact?x=1');
    syncPageWithPath();
    expect(window.location.pathname).toBe('/contact');
    expect(document.title).toBe(`${SITE_NAME} – Kontakt`);
  });
});
