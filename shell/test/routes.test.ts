import { PAGE_ROUTES, REMOTES, SITE_NAME } from '@lakecams/contracts';
import { describe, expect, it } from 'vitest';
import { activeWhenFor, documentTitle, matchRoute } from '../src/routes.ts';

const at = (pathname: string) => ({ pathname }) as Location;

describe('route matching', () => {
  it.each([
    ['/', 'mf_map', ''],
    ['/webcam/Rapperswil', 'mf_map', 'webcam/:name'],
    ['/webcams', 'mf_map', 'webcams'],
    ['/webcams/', 'mf_map', 'webcams'],
    ['/referes-list', 'mf_map', 'referes-list'],
    ['/datenschutz', 'mf_map', 'datenschutz'],
    ['/bestof', 'mf_map', 'bestof'],
    ['/login', 'mf_account', 'login'],
    ['/confirmRegistration', 'mf_account', 'confirmRegistration'],
    ['/edit/webcams', 'mf_admin', 'edit/webcams'],
    ['/edit/referer/cameras', 'mf_admin', 'edit/referer/cameras'],
    ['/edit/codes', 'mf_admin', 'edit/codes'],
    ['/impersonate', 'mf_admin', 'impersonate'],
  ])('%s belongs to %s (%s)', (path, remote, route) => {
    expect(matchRoute(path)).toMatchObject({ remote, route });
  });

  it.each([
    '/nowhere',
    '/webcam',
    '/webcam/',
    '/webcam/a/b',
    '/edit',
    '/edit/referer',
    '/Webcams',
    '//',
    '/login/x',
    '',
  ])('%s matches no route', (path) => {
    expect(matchRoute(path)).toBeNull();
  });

  it('decodes the camera name', () => {
    expect(matchRoute('/webcam/Z%C3%BCrich%20Hafen')?.params).toEqual({ name: 'Zürich Hafen' });
    expect(matchRoute('/webcam/%E0%A4%A')?.params).toEqual({ name: '%E0%A4%A' });
  });

  it('every route of REMOTES is matched by its own remote', () => {
    for (const remote of REMOTES) {
      for (const route of remote.routes) {
        const path = `/${route.replace(':name', 'Kamera-1')}`;
        expect(matchRoute(path)?.remote).toBe(remote.name);
      }
    }
  });

  it('gives every page of PAGE_ROUTES to a remote of REMOTES, each route once', () => {
    const remotes = REMOTES.map((remote) => remote.name as string);
    for (const page of PAGE_ROUTES) expect(remotes, page.route).toContain(page.remote);
    const routes = PAGE_ROUTES.map((page) => page.route);
    expect(new Set(routes).size).toBe(routes.length);
    expect(REMOTES.flatMap((remote) => remote.routes)).toEqual(routes);
  });
});

describe('activeWhen', () => {
  it('activates exactly one remote on a known path and none on an unknown one', () => {
    const active = (path: string) =>
      REMOTES.filter((remote) => activeWhenFor(remote.name)(at(path))).map((r) => r.name);
    expect(active('/')).toEqual(['mf_map']);
    expect(active('/webcam/Stäfa')).toEqual(['mf_map']);
    expect(active('/user')).toEqual(['mf_account']);
    expect(active('/jobs')).toEqual(['mf_admin']);
    expect(active('/jobs/old')).toEqual([]);
  });
});

describe('page titles', () => {
  it('names home with the site name alone', () => {
    expect(documentTitle('/')).toBe(SITE_NAME);
  });

  it('prefixes every other page with the site name', () => {
    expect(documentTitle('/webcams')).toBe(`${SITE_NAME} – Alle Webcams`);
    expect(documentTitle('/login')).toBe(`${SITE_NAME} – Anmelden`);
    expect(documentTitle('/bestof')).toBe(`${SITE_NAME} – Bilder des Tages`);
    expect(documentTitle('/edit/webcams')).toBe(`${SITE_NAME} – Webcams bearbeiten`);
  });

  it('uses the camera name on a camera page', () => {
    expect(documentTitle('/webcam/Rapperswil')).toBe(`${SITE_NAME} – Rapperswil`);
  });

  it('has a non-empty title for every route but home', () => {
    for (const { route } of PAGE_ROUTES) {
      const title = documentTitle(`/${route.replace(':name', 'X')}`);
      if (route === '') expect(title).toBe(SITE_NAME);
      else expect(title.length, route).toBeGreaterThan(`${SITE_NAME} – `.length);
    }
  });
});
