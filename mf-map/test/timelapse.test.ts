import { describe, expect, it, vi } from 'vitest';
import { createImagePreloader } from '../src/camera/image-preloader.ts';
import { initialTimelapse, preloadOrder, type Timelapse, timelapseReducer } from '../src/camera/timelapse.ts';

const ready = () => true;

function run(state: Timelapse, ...actions: Parameters<typeof timelapseReducer>[1][]): Timelapse {
  return actions.reduce(timelapseReducer, state);
}

describe('the time slider', () => {
  it('starts at the latest image of the day', () => {
    expect(initialTimelapse(12)).toEqual({ count: 12, index: 11, playing: false });
    expect(initialTimelapse(0)).toEqual({ count: 0, index: 0, playing: false });
  });

  it('selects and steps within the day, never beyond it', () => {
    const start = initialTimelapse(5);
    expect(run(start, { type: 'select', index: 2 }).index).toBe(2);
    expect(run(start, { type: 'select', index: 99 }).index).toBe(4);
    expect(run(start, { type: 'select', index: -3 }).index).toBe(0);
    expect(run(start, { type: 'step', by: -1 }, { type: 'step', by: -1 }).index).toBe(2);
    expect(run(start, { type: 'step', by: 1 }).index).toBe(4);
  });

  it('plays a timelapse from the start of the day when at the latest image, then stops at the end', () => {
    let state = run(initialTimelapse(3), { type: 'play' });
    expect(state).toEqual({ count: 3, index: 0, playing: true });
    state = run(state, { type: 'tick', isReady: ready });
    expect(state.index).toBe(1);
    state = run(state, { type: 'tick', isReady: ready }, { type: 'tick', isReady: ready });
    expect(state).toEqual({ count: 3, index: 2, playing: false });
  });

  it('plays on from the selected image', () => {
    const state = run(initialTimelapse(10), { type: 'select', index: 4 }, { type: 'play' });
    expect(state).toMatchObject({ index: 4, playing: true });
  });

  it('waits for the next image to be loaded before showing it', () => {
    const waiting = vi.fn((index: number) => index !== 1);
    const state = run(initialTimelapse(3), { type: 'play' }, { type: 'tick', isReady: waiting });
    expect(state).toMatchObject({ index: 0, playing: true });
    expect(waiting).toHaveBeenCalledWith(1);
  });

  it('stops playing when the viewer moves the slider or presses pause; ticks while paused do nothing', () => {
    const playing = run(initialTimelapse(10), { type: 'play' });
    expect(run(playing, { type: 'select', index: 6 })).toMatchObject({ index: 6, playing: false });
    expect(run(playing, { type: 'step', by: 1 })).toMatchObject({ index: 1, playing: false });
    const paused = run(playing, { type: 'pause' });
    expect(run(paused, { type: 'tick', isReady: ready })).toBe(paused);
  });

  it('does not play a day with fewer than two images', () => {
    const one = initialTimelapse(1);
    expect(run(one, { type: 'play' })).toBe(one);
  });

  it('follows a live image when the viewer is at the latest, and stays put otherwise', () => {
    expect(run(initialTimelapse(5), { type: 'grow', count: 6 })).toEqual({ count: 6, index: 5, playing: false });
    expect(run(initialTimelapse(5), { type: 'select', index: 1 }, { type: 'grow', count: 6 })).toMatchObject({
      count: 6,
      index: 1,
    });
    const playing = run(initialTimelapse(5), { type: 'play' }, { type: 'grow', count: 6 });
    expect(playing).toMatchObject({ count: 6, index: 0, playing: true });
  });

  it('keeps the chosen picture where a late, older one pushed it', () => {
    const chosen = run(initialTimelapse(5), { type: 'select', index: 1 });
    expect(run(chosen, { type: 'grow', count: 6, keep: 2 })).toMatchObject({ count: 6, index: 2 });
    const playing = run(initialTimelapse(5), { type: 'play' }, { type: 'grow', count: 6, keep: 1 });
    expect(playing).toMatchObject({ index: 1, playing: true });
  });

  it('starts another day at its latest image', () => {
    expect(run(initialTimelapse(5), { type: 'select', index: 1 }, { type: 'load', count: 20 })).toEqual(
      initialTimelapse(20),
    );
  });
});

describe('preloadOrder', () => {
  it('fetches the selected image, then the ones after it, then the ones before it', () => {
    expect(preloadOrder(10, 4, 3, 2)).toEqual([4, 5, 6, 7, 3, 2]);
  });

  it('stays inside the day', () => {
    expect(preloadOrder(5, 4, 3, 10)).toEqual([4, 3, 2, 1, 0]);
    expect(preloadOrder(5, 0, 10, 3)).toEqual([0, 1, 2, 3, 4]);
    expect(preloadOrder(0, 0, 3, 3)).toEqual([]);
  });
});

describe('the image preloader', () => {
  function deferredLoads() {
    const pending = new Map<string, () => void>();
    const load = vi.fn((url: string) => new Promise<void>((resolve) => pending.set(url, resolve)));
    return { load, pending };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('loads a few at a time, most wanted first, and reports each', async () => {
    const { load, pending } = deferredLoads();
    const settled = vi.fn();
    const preloader = createImagePreloader(load, settled, 2);
    preloader.want(['a', 'b', 'c', 'd']);
    await flush();
    expect(load.mock.calls.map(([url]) => url)).toEqual(['a', 'b']);
    pending.get('a')?.();
    await flush();
    expect(settled).toHaveBeenCalledWith('a');
    expect(preloader.isSettled('a')).toBe(true);
    expect(load.mock.calls.map(([url]) => url)).toEqual(['a', 'b', 'c']);
  });

  it('replaces its wish list when the slider moves, never loading a picture twice', async () => {
    const { load, pending } = deferredLoads();
    const preloader = createImagePreloader(load, () => {}, 1);
    preloader.want(['a', 'b', 'c']);
    await flush();
    preloader.want(['x', 'a', 'b']);
    pending.get('a')?.();
    await flush();
    expect(load.mock.calls.map(([url]) => url)).toEqual(['a', 'x']);
  });

  it('counts a failed picture as settled so a timelapse does not hang', async () => {
    const preloader = createImagePreloader(
      () => Promise.reject(new Error('404')),
      () => {},
      1,
    );
    preloader.want(['broken']);
    await flush();
    await flush();
    expect(preloader.isSettled('broken')).toBe(true);
  });
});
