import type { Session } from '@lakecams/session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSessionBeforeApps } from '../src/session-start.ts';

const sessionStarting = (start: () => Promise<void>) => ({ start }) as unknown as Session;

describe('startSessionBeforeApps', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('waits for the session to start', async () => {
    let started = false;
    await startSessionBeforeApps(
      sessionStarting(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        started = true;
      }),
    );
    expect(started).toBe(true);
  });

  it('gives up waiting after the timeout, so a dead API does not block the page', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let done = false;
    const waiting = startSessionBeforeApps(
      sessionStarting(() => new Promise(() => {})),
      5_000,
    ).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('never rejects when the start fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(
      startSessionBeforeApps(sessionStarting(() => Promise.reject(new Error('down')))),
    ).resolves.toBeUndefined();
  });
});
