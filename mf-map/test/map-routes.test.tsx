import { REMOTES } from '@lakecams/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MapApp } from '../src/map-app.tsx';
import { renderAt, stubApi } from './fixtures.tsx';

const ROUTES = REMOTES.find((remote) => remote.name === 'mf_map')?.routes ?? [];

const HEADINGS: Record<(typeof ROUTES)[number], string> = {
  '': 'Webcams am Zürichsee',
  'webcam/:name': 'Rapperswil',
  webcams: 'Alle Webcams',
  'referes-list': 'Preise und Referenzen',
  datenschutz: 'Datenschutz',
  bestof: 'Bilder des Tages',
};

describe('mf-map routes', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it.each(ROUTES)('/%s renders its page heading', async (route) => {
    stubApi({});
    await renderAt(`/${route.replace(':name', 'Rapperswil')}`);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(HEADINGS[route]);
  });

  it('shows no variant line in an ordinary build', () => {
    stubApi({});
    render(<MapApp />);
    expect(screen.queryByText(/^Variant:/)).toBeNull();
  });
});
