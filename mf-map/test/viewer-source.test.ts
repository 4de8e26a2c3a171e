import { afterEach, describe, expect, it, vi } from 'vitest';
import { entitledPicture, maxZoomPixelRatio, qualityOf, viewerSource } from '../src/viewer/viewer-source.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the level the viewer reads from a picture', () => {
  it('takes the picture answer’s bare level and the redirect’s level with its reason alike', () => {
    expect(qualityOf('HIGH')).toBe('HIGH');
    expect(qualityOf('HIGH; own configuration')).toBe('HIGH');
    expect(qualityOf('POOR; default')).toBe('POOR');
    expect(qualityOf(' FULL ')).toBe('FULL');
    for (const header of [null, '', 'high', 'BEST', '; default'])
      expect([header, qualityOf(header)]).toEqual([header, null]);
  });

  it('zooms until a picture pixel fills a screen pixel, screens denser than 2× counted as 2×', () => {
    expect(maxZoomPixelRatio(1)).toBe(1);
    expect(maxZoomPixelRatio(2)).toBe(0.5);
    expect(maxZoomPixelRatio(3)).toBe(0.5);
    expect(maxZoomPixelRatio(0.5)).toBe(1);
  });

  it('reads level and width from where fetch ends: the picture, after the redirect', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      fetched.push(url);
      expect(init.redirect ?? 'follow').toBe('follow');
      // What fetch hands back after following /api/Image/Get/… to /pictures/…: the picture's own headers.
      return new Response(new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }), {
        headers: { 'x-image-quality': 'HIGH', 'x-image-name': '202611250500', 'x-image-full-width': '2560' },
      });
    });
    vi.stubGlobal('createImageBitmap', async () => ({ width: 1920, height: 1080, close: () => {} }));
    const picture = await entitledPicture('Seedamm', '202611250500', new AbortController().signal);
    expect(picture).toEqual({ quality: 'HIGH', width: 1920, fullWidth: 2560 });
    expect(fetched).toEqual(['/api/Image/Get/camera/Seedamm/202611250500.jpg']);
    // Wider than the screen: tiles of that level.
    expect(viewerSource('Seedamm', '202611250500', picture, 1280)).toEqual({
      type: 'tiles',
      url: '/api/Image/Zoom/camera/Seedamm/202611250500.dzi?level=HIGH',
    });
  });
});
