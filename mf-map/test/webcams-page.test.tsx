import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ITEMS, image, renderAt, stubApi, webcam } from './fixtures.tsx';

describe('the webcams page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows a loading note, then a card per camera with an image, linking to its page', async () => {
    const fetch = stubApi({ '/api/Webcam/GetImages': [Response.json(ITEMS)] });
    await renderAt('/webcams');
    expect(screen.getByRole('status').textContent).toContain('geladen');

    const links = await screen.findAllByRole('link');
    // Each card, and beside it the link that opens its picture in the viewer.
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/webcam/Rapperswil-Seedamm',
      '/webcam/Rapperswil-Seedamm?zoom=1',
      '/webcam/Staefa_Hafen',
      '/webcam/Staefa_Hafen?zoom=1',
      '/webcam/Ohne-Standort',
      '/webcam/Ohne-Standort?zoom=1',
    ]);
    expect(links[1]?.getAttribute('aria-label')).toBe('Rapperswil-Seedamm vergrössern');
    expect(links[0]?.textContent).toContain('Rapperswil-Seedamm');
    expect(screen.queryByText('Dunkel')).toBeNull();
    expect(fetch).toHaveBeenCalledWith('/api/Webcam/GetImages', expect.anything());
  });

  it("loads the first screen's pictures at once, the first of them first, the others lazily, all with their size set so nothing shifts", async () => {
    const names = ['Eins', 'Zwei', 'Drei', 'Vier', 'Fuenf', 'Sechs'];
    const items = names.map((name, i) => ({ webcam: webcam(i + 1, name), images: [image(i + 1, '202611221155')] }));
    stubApi({ '/api/Webcam/GetImages': [Response.json(items)] });
    await renderAt('/webcams');
    await screen.findByRole('img', { name: 'Aktuelles Bild der Webcam Sechs' });
    const pictures = names.map((name) => screen.getByRole('img', { name: `Aktuelles Bild der Webcam ${name}` }));
    expect(pictures[0]?.getAttribute('src')).toBe('/api/Image/Get/camera/Eins/202611221155.jpg');
    expect(pictures.map((picture) => picture.getAttribute('loading'))).toEqual([
      'eager',
      'eager',
      'eager',
      'eager',
      'lazy',
      'lazy',
    ]);
    expect(pictures.map((picture) => picture.getAttribute('fetchpriority'))).toEqual([
      'high',
      null,
      null,
      null,
      null,
      null,
    ]);
    for (const picture of pictures) {
      expect(picture.getAttribute('width')).toBe('480');
      expect(picture.getAttribute('height')).toBe('270');
    }
  });

  it('shows an error with a retry that loads again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = stubApi({
      '/api/Webcam/GetImages': [new Response('down', { status: 502 }), Response.json(ITEMS)],
    });
    await renderAt('/webcams');
    expect((await screen.findByRole('alert')).textContent).toContain('konnten nicht geladen werden');
    fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('link', { name: /Webcam Rapperswil-Seedamm/ })).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('says so when no camera has an image', async () => {
    stubApi({ '/api/Webcam/GetImages': [Response.json([ITEMS[1], ITEMS[2]])] });
    await renderAt('/webcams');
    expect(await screen.findByText('Zurzeit liefert keine Webcam ein Bild.')).toBeTruthy();
  });
});
