import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropFirstViewOnLeave, firstViewLoaded } from '../src/first-view.ts';

function firstView(): HTMLImageElement {
  document.body.innerHTML = '<main id="main"><div id="first-view"><figure><img alt="x"></figure></div></main>';
  const picture = document.querySelector('img');
  if (!picture) throw new Error('no picture');
  return picture;
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('firstViewLoaded', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('resolves at once on a page without a first view', async () => {
    expect(await settled(firstViewLoaded())).toBe(true);
  });

  it('waits for the picture to load or fail', async () => {
    for (const outcome of ['load', 'error']) {
      const picture = firstView();
      Object.defineProperty(picture, 'complete', { value: false });
      const loaded = firstViewLoaded();
      expect(await settled(loaded)).toBe(false);
      picture.dispatchEvent(new Event(outcome));
      expect(await settled(loaded)).toBe(true);
    }
  });

  it('waits no longer than its limit', async () => {
    vi.useFakeTimers();
    const picture = firstView();
    Object.defineProperty(picture, 'complete', { value: false });
    const loaded = firstViewLoaded(1500);
    await vi.advanceTimersByTimeAsync(1499);
    expect(await settled(loaded)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(loaded)).toBe(true);
  });
});

describe('dropFirstViewOnLeave', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it('drops a first view whose page the visitor left before the shell ran, and keeps one still open', () => {
    document.body.innerHTML = '<main id="main"><div id="first-view" data-path="/webcam/Richterswil"></div></main>';
    window.history.replaceState(null, '', '/webcam/Richterswil');
    dropFirstViewOnLeave();
    expect(document.getElementById('first-view')).not.toBeNull();
    window.history.replaceState(null, '', '/webcams');
    window.dispatchEvent(new CustomEvent('single-spa:routing-event'));
    expect(document.getElementById('first-view')).toBeNull();

    document.body.innerHTML = '<main id="main"><div id="first-view" data-path="/webcam/Richterswil"></div></main>';
    dropFirstViewOnLeave();
    expect(document.getElementById('first-view')).toBeNull();
  });
});
