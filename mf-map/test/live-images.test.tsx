import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listedCameras, withLiveImage } from '../src/cameras/camera-list.ts';
import { withoutCameras } from '../src/cameras/use-listed-cameras.ts';
import { createLiveImageFeed, LIVE_EVENTS_PATH, parseImageEvent, parseRemovalEvent } from '../src/live/live-images.ts';
import { FakeEventSource, image, ITEMS, renderAt, stubApi } from './fixtures.tsx';

describe('parseImageEvent', () => {
  it('reads an Image and refuses anything else', () => {
    const valid = image(1, '202611221205');
    expect(parseImageEvent(JSON.stringify(valid))).toEqual(valid);
    expect(parseImageEvent('not json')).toBeNull();
    expect(parseImageEvent(JSON.stringify({ ...valid, name: '../../etc' }))).toBeNull();
    expect(parseImageEvent(JSON.stringify({ ...valid, lat: '47' }))).toBeNull();
    expect(parseImageEvent('null')).toBeNull();
  });

  it('keeps whether the picture is frozen when the event says so', () => {
    const valid = image(1, '202611221205');
    expect(parseImageEvent(JSON.stringify({ ...valid, frozen: true }))).toEqual({ ...valid, frozen: true });
    expect(parseImageEvent(JSON.stringify({ ...valid, frozen: false }))).toEqual({ ...valid, frozen: false });
    expect(parseImageEvent(JSON.stringify({ ...valid, frozen: 'yes', score: 12 }))).toEqual(valid);
  });
});

describe('parseRemovalEvent', () => {
  it('reads a camera id with its name, or the id alone, and refuses anything else', () => {
    expect(parseRemovalEvent('{"webcamId":7,"camera":"Richterswil"}')).toEqual({ webcamId: 7, camera: 'Richterswil' });
    expect(parseRemovalEvent('{"webcamId":7}')).toEqual({ webcamId: 7 });
    expect(parseRemovalEvent('{"webcamId":7,"camera":42}')).toEqual({ webcamId: 7 });
    expect(parseRemovalEvent('{"webcamId":"7"}')).toBeNull();
    expect(parseRemovalEvent('{"webcamId":0}')).toBeNull();
    expect(parseRemovalEvent('{"webcamId":1.5}')).toBeNull();
    expect(parseRemovalEvent('not json')).toBeNull();
    expect(parseRemovalEvent('null')).toBeNull();
  });
});

describe('the live image feed', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const openFake = (url: string) => new FakeEventSource(url);

  it('opens one EventSource for all listeners of the page and passes each image on', () => {
    const feed = createLiveImageFeed(openFake);
    const first = vi.fn();
    const second = vi.fn();
    feed.subscribe(first);
    feed.subscribe(second);
    expect(FakeEventSource.instances.map((source) => source.url)).toEqual([LIVE_EVENTS_PATH]);
    const next = image(4, '202611221210');
    FakeEventSource.instances[0]?.emit('image', next);
    FakeEventSource.instances[0]?.emit('image', 'garbage');
    expect(first.mock.calls).toEqual([[next]]);
    expect(second.mock.calls).toEqual([[next]]);
  });

  it('passes removals to those who listen for them, images to those who listen for images', () => {
    const feed = createLiveImageFeed(openFake);
    const images = vi.fn();
    const removals = vi.fn();
    const both = { image: vi.fn(), removed: vi.fn() };
    const stops = [feed.subscribe(images), feed.subscribe({ removed: removals }), feed.subscribe(both)];
    expect(FakeEventSource.instances).toHaveLength(1);
    const stream = FakeEventSource.instances[0];
    stream?.emit('removed', { webcamId: 4, camera: 'Staefa_Hafen' });
    stream?.emit('removed', { webcamId: 'four' });
    const next = image(1, '202611221210');
    stream?.emit('image', next);
    expect(images.mock.calls).toEqual([[next]]);
    expect(removals.mock.calls).toEqual([[{ webcamId: 4, camera: 'Staefa_Hafen' }]]);
    expect(both.removed.mock.calls).toEqual(removals.mock.calls);
    expect(both.image.mock.calls).toEqual(images.mock.calls);
    for (const stop of stops) stop();
    expect(feed.listenerCount).toBe(0);
    vi.advanceTimersByTime(2000);
    expect(stream?.closed).toBe(true);
  });

  it('closes the stream a little after the last listener left, unless another comes', () => {
    const feed = createLiveImageFeed(openFake, 1000);
    const stop = feed.subscribe(() => {});
    stop();
    vi.advanceTimersByTime(500);
    const again = feed.subscribe(() => {});
    vi.advanceTimersByTime(2000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0]?.closed).toBe(false);
    again();
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.instances[0]?.closed).toBe(true);
  });
});

describe('withLiveImage', () => {
  const cameras = listedCameras(ITEMS);

  it('makes a newer image the latest of its camera', () => {
    const next = image(1, '202611221205', { direction: 251 });
    const update = withLiveImage(cameras, next);
    expect(update.known).toBe(true);
    expect(update.cameras[0]?.latest).toEqual(next);
    expect(update.cameras[1]).toBe(cameras[1]);
  });

  it('takes a corrected position for the same image, ignores an older one', () => {
    expect(withLiveImage(cameras, image(1, '202611221200', { lat: 47.3 })).cameras[0]?.latest.lat).toBe(47.3);
    expect(withLiveImage(cameras, image(1, '202611221100')).cameras).toBe(cameras);
  });

  it('tells when the camera is not listed yet', () => {
    expect(withLiveImage(cameras, image(99)).known).toBe(false);
  });
});

describe('withoutCameras', () => {
  const cameras = listedCameras(ITEMS);

  it('drops the removed cameras and keeps the same list when none of them was listed', () => {
    expect(withoutCameras(cameras, new Set([4])).map((camera) => camera.webcam.id)).toEqual([1, 5]);
    expect(withoutCameras(cameras, new Set([2, 99]))).toBe(cameras);
  });
});

describe('live updates on the webcams page', () => {
  beforeEach(() => {
    // The page's feed is a module singleton that may still hold the stream of a previous test.
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows a new picture without reloading the page', async () => {
    stubApi({ '/api/Webcam/GetImages': [Response.json(ITEMS)] });
    await renderAt('/webcams');
    const picture = await screen.findByRole('img', { name: /Rapperswil-Seedamm/ });
    expect(picture.getAttribute('src')).toBe('/api/Image/Get/camera/Rapperswil-Seedamm/202611221200.jpg');
    const stream = FakeEventSource.open().at(-1);
    act(() => stream?.emit('image', image(1, '202611221205')));
    expect(picture.getAttribute('src')).toBe('/api/Image/Get/camera/Rapperswil-Seedamm/202611221205.jpg');
  });

  it('fetches the list again when a camera delivers its first picture', async () => {
    const fetch = stubApi({
      '/api/Webcam/GetImages': [
        Response.json(ITEMS),
        Response.json([...ITEMS.slice(0, 1), { webcam: ITEMS[1]?.webcam, images: [image(2, '202611221210')] }]),
      ],
    });
    await renderAt('/webcams');
    await screen.findByRole('img', { name: /Rapperswil-Seedamm/ });
    act(() => FakeEventSource.open().at(-1)?.emit('image', image(2, '202611221210')));
    expect(await screen.findByRole('img', { name: /Dunkel/ })).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('drops the card of a camera an administrator deleted without reloading the page', async () => {
    stubApi({ '/api/Webcam/GetImages': [Response.json(ITEMS)] });
    await renderAt('/webcams');
    await screen.findByRole('img', { name: /Staefa_Hafen/ });
    const stream = FakeEventSource.open().at(-1);
    act(() => stream?.emit('removed', { webcamId: 4, camera: 'Staefa_Hafen' }));
    expect(screen.queryByRole('img', { name: /Staefa_Hafen/ })).toBeNull();
    expect(screen.getByRole('img', { name: /Rapperswil-Seedamm/ })).toBeTruthy();
    // A late picture of the deleted camera does not bring it back.
    act(() => stream?.emit('image', image(4, '202611221210')));
    expect(screen.queryByRole('img', { name: /Staefa_Hafen/ })).toBeNull();
  });

  it('keeps a deleted camera out of a list answered before the deletion', async () => {
    const fetch = stubApi({
      '/api/Webcam/GetImages': [
        Response.json(ITEMS),
        Response.json([
          ...ITEMS.slice(0, 1),
          { webcam: ITEMS[1]?.webcam, images: [image(2, '202611221210')] },
          ...ITEMS.slice(2),
        ]),
      ],
    });
    await renderAt('/webcams');
    await screen.findByRole('img', { name: /Staefa_Hafen/ });
    const stream = FakeEventSource.open().at(-1);
    // A first picture makes the page fetch the list again; the camera is deleted while that answer is under way.
    act(() => stream?.emit('image', image(2, '202611221210')));
    act(() => stream?.emit('removed', { webcamId: 4 }));
    expect(await screen.findByRole('img', { name: /Dunkel/ })).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('img', { name: /Staefa_Hafen/ })).toBeNull();
  });
});
