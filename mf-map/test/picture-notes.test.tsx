import { SessionContext } from '@lakecams/session';
import { createTestSession, testUser } from '@lakecams/session/testing';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ageLabel, instantOfImage, PictureAge } from '../src/cameras/picture-age.tsx';
import { isUpscaled, QualityNote, qualityNoteContent, useUpscaled } from '../src/camera/quality-note.tsx';

describe('the age of a picture', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('reads image names as Zurich time, winter and summer', () => {
    expect(new Date(instantOfImage('202601151230') ?? 0).toISOString()).toBe('2026-01-15T11:30:00.000Z');
    expect(new Date(instantOfImage('202607151230') ?? 0).toISOString()).toBe('2026-07-15T10:30:00.000Z');
    expect(instantOfImage('latest')).toBeNull();
  });

  it('says it the way a visitor reads it', () => {
    expect(ageLabel(20_000)).toBe('gerade eben');
    expect(ageLabel(-5_000)).toBe('gerade eben');
    expect(ageLabel(3 * 60_000 + 59_000)).toBe('vor 3 Min.');
    expect(ageLabel(2 * 3_600_000 + 1)).toBe('vor 2 Std.');
    expect(ageLabel(26 * 3_600_000)).toBe('vor 1 Tag');
    expect(ageLabel(4 * 86_400_000)).toBe('vor 4 Tagen');
  });

  it('updates live and stops its timer when the label goes', () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T11:35:20Z') });
    const view = render(<PictureAge imageName="202611221235" />);
    const label = screen.getByText('gerade eben');
    expect(label.getAttribute('datetime')).toBe('2026-11-22T11:35:00.000Z');
    expect(label.getAttribute('title')).toBe('22.11.2026, 12:35 Uhr');
    act(() => vi.advanceTimersByTime(3 * 60_000));
    expect(label.textContent).toBe('vor 3 Min.');
    act(() => vi.advanceTimersByTime(2 * 3_600_000));
    expect(label.textContent).toBe('vor 2 Std.');
    view.unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

function Picture({
  naturalWidth,
  shownWidth,
  src = '/a.jpg',
}: {
  naturalWidth: number;
  shownWidth: number;
  src?: string;
}) {
  const image = useRef<HTMLImageElement>(null);
  const upscaled = useUpscaled(image, src);
  return (
    <>
      <img
        ref={(element) => {
          if (!element) return;
          Object.defineProperty(element, 'naturalWidth', { value: naturalWidth });
          element.getBoundingClientRect = () => ({ width: shownWidth }) as DOMRect;
          image.current = element;
        }}
        src="a.jpg"
        alt="Bild"
      />
      {upscaled !== null && <QualityNote camera="Hafen" src={src} naturalWidth={upscaled} />}
    </>
  );
}

/** The picture's answer as the server gives it: its level and the camera's own width. */
function answerHeadRequests(level: string, fullWidth: number) {
  const fetch = vi.fn(
    async () => new Response(null, { headers: { 'x-image-quality': level, 'x-image-full-width': String(fullWidth) } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function renderPicture(props: { naturalWidth: number; shownWidth: number; src?: string }, roles?: string[]) {
  const { session } = await createTestSession(roles ? { user: testUser(), roles } : {});
  render(
    <SessionContext.Provider value={session}>
      <MemoryRouter>
        <Picture {...props} />
      </MemoryRouter>
    </SessionContext.Provider>,
  );
  await act(async () => {});
}

describe('the quality note', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('judges a picture upscaled when it has fewer pixels than the screen pixels of its box, up to 2×', () => {
    expect(isUpscaled(480, 960)).toBe(true);
    expect(isUpscaled(1280, 960)).toBe(false);
    expect(isUpscaled(960, 960.5)).toBe(false);
    expect(isUpscaled(0, 960)).toBe(false);
    // A phone: 358 CSS px at 3× density.
    expect(isUpscaled(480, 358, 3)).toBe(true);
    expect(isUpscaled(800, 358, 3)).toBe(false);
    expect(isUpscaled(480, 358, 1)).toBe(false);
  });

  it('asks an anonymous visitor to register, saying the level it got and what the camera delivers', async () => {
    const head = answerHeadRequests('POOR', 2560);
    await renderPicture({ naturalWidth: 480, shownWidth: 960 });
    expect(head).toHaveBeenCalledWith('/a.jpg', expect.objectContaining({ method: 'HEAD' }));
    expect(screen.getByText(/Einfache Qualität \(480 px breit\), die Kamera liefert 2560 px\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Bessere Qualität mit einem Konto' }).getAttribute('href')).toBe(
      '/register',
    );
  });

  it('points a registered user to what Premium is', async () => {
    answerHeadRequests('LOW', 2560);
    await renderPicture({ naturalWidth: 800, shownWidth: 960 }, []);
    expect(screen.getByRole('link', { name: 'Schärfere Bilder mit Premium' }).getAttribute('href')).toBe(
      '/referes-list#premium',
    );
  });

  it('tells a Premium user the level it got while the camera delivers more, never that the camera has no more', async () => {
    answerHeadRequests('POOR', 2560);
    await renderPicture({ naturalWidth: 480, shownWidth: 960 }, ['Premium']);
    expect(screen.queryByText(/liefert dieses Bild nicht grösser/)).toBeNull();
    expect(screen.getByText(/Einfache Qualität \(480 px breit\)/)).toBeTruthy();
  });

  it("says it is the camera's limit when the picture is all the camera delivers", async () => {
    answerHeadRequests('MEDIUM', 1024);
    await renderPicture({ naturalWidth: 1024, shownWidth: 1200 }, ['Premium']);
    expect(screen.getByText('Vergrössert dargestellt: die Kamera liefert dieses Bild nicht grösser.')).toBeTruthy();
    expect(qualityNoteContent({ level: 'FULL', fullWidth: null }, 900, 'visitor').link).toBeUndefined();
  });

  it('asks once per camera, not for every picture of the day it steps through', async () => {
    const head = answerHeadRequests('POOR', 2560);
    const { session } = await createTestSession({});
    const picture = (src: string) => (
      <SessionContext.Provider value={session}>
        <MemoryRouter>
          <Picture naturalWidth={480} shownWidth={960} src={src} />
        </MemoryRouter>
      </SessionContext.Provider>
    );
    const view = render(picture('/1.jpg'));
    await act(async () => {});
    view.rerender(picture('/2.jpg'));
    view.rerender(picture('/3.jpg'));
    await act(async () => {});
    expect(head).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/Einfache Qualität \(480 px breit\)/)).toBeTruthy();
  });

  it('says nothing when the picture has the pixels it is shown with', async () => {
    const head = answerHeadRequests('MEDIUM', 2560);
    await renderPicture({ naturalWidth: 1280, shownWidth: 960 });
    expect(screen.queryByText(/Vergrössert dargestellt/)).toBeNull();
    expect(head).not.toHaveBeenCalled();
  });
});
