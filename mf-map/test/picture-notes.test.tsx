import { SessionContext } from '@lakecams/session';
import { createTestSession, testUser } from '@lakecams/session/testing';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ageLabel, instantOfImage, PictureAge } from '../src/cameras/picture-age.tsx';
import { isUpscaled, QualityNote, useUpscaled } from '../src/camera/quality-note.tsx';

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

function Picture({ naturalWidth, shownWidth }: { naturalWidth: number; shownWidth: number }) {
  const image = useRef<HTMLImageElement>(null);
  const upscaled = useUpscaled(image, 'a.jpg');
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
      {upscaled && <QualityNote />}
    </>
  );
}

async function renderPicture(props: { naturalWidth: number; shownWidth: number }, roles?: string[]) {
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
  afterEach(cleanup);

  it('judges a picture upscaled when it has fewer pixels than its box', () => {
    expect(isUpscaled(480, 960)).toBe(true);
    expect(isUpscaled(1280, 960)).toBe(false);
    expect(isUpscaled(960, 960.5)).toBe(false);
    expect(isUpscaled(0, 960)).toBe(false);
  });

  it('asks an anonymous visitor to register when the picture is blown up', async () => {
    await renderPicture({ naturalWidth: 480, shownWidth: 960 });
    expect(screen.getByRole('link', { name: 'Bessere Qualität mit einem Konto' }).getAttribute('href')).toBe(
      '/register',
    );
  });

  it('points a registered user to Premium', async () => {
    await renderPicture({ naturalWidth: 800, shownWidth: 960 }, []);
    expect(screen.getByRole('link', { name: 'Schärfere Bilder mit Premium' }).getAttribute('href')).toBe(
      '/referes-list',
    );
  });

  it('says nothing when the picture has the pixels it is shown with', async () => {
    await renderPicture({ naturalWidth: 1280, shownWidth: 960 });
    expect(screen.queryByText(/Vergrössert dargestellt/)).toBeNull();
  });
});
