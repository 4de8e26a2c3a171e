import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DayTimelapse, timelapseUrl } from '../src/camera/day-timelapse.tsx';

const CAMERA = 'Rapperswil Seedamm';
const CLIP = '/api/Image/Timelapse/camera/Rapperswil%20Seedamm/2026-11-21.mp4';

function show(props: Partial<Parameters<typeof DayTimelapse>[0]> = {}) {
  return render(<DayTimelapse camera={CAMERA} day="2026-11-21" pictures={288} today={false} {...props} />);
}

const lead = (container: HTMLElement) => container.querySelector('.day-timelapse__lead')?.textContent;

describe("the camera page's day time-lapse", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('names the clip by camera and day', () => {
    expect(timelapseUrl(CAMERA, '2026-11-21')).toBe(CLIP);
  });

  it('loads no video until the visitor starts it, then plays the day in a video element', () => {
    const { container } = show();
    expect(screen.getByRole('heading', { name: 'Zeitraffer als Video' })).toBeTruthy();
    expect(lead(container)).toBe('Samstag, 21. November 2026 in 24 Sekunden (288 Bilder).');
    expect(container.querySelector('video')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Video abspielen/ }));
    const video = container.querySelector('video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe(CLIP);
    expect([video.controls, video.muted, video.loop]).toEqual([true, true, true]);
    expect(screen.queryByRole('button', { name: /Video abspielen/ })).toBeNull();
  });

  it('says when the clip cannot be loaded', () => {
    const { container } = show();
    fireEvent.click(screen.getByRole('button', { name: /Video abspielen/ }));
    fireEvent.error(container.querySelector('video') as HTMLVideoElement);
    expect(screen.getByRole('alert').textContent).toMatch(/konnte nicht geladen werden/);
  });

  it("offers the clip as a download and says today's clip keeps growing", () => {
    const { container } = show({ today: true, pictures: 1 });
    const download = screen.getByRole('link', { name: 'Herunterladen (MP4)' });
    expect([download.getAttribute('href'), download.getAttribute('download')]).toEqual([
      CLIP,
      'Rapperswil Seedamm-2026-11-21.mp4',
    ]);
    expect(lead(container)).toMatch(/in 1 Sekunde \(1 Bild\), laufend ergänzt\.$/);
  });

  it('copies the link where the browser cannot share, and shows it when copying fails too', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Link teilen' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Link kopiert.'));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}${CLIP}`);
    cleanup();
    writeText.mockRejectedValueOnce(new Error('denied'));
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Link teilen' }));
    const field = (await screen.findByLabelText('Link zum Kopieren')) as HTMLInputElement;
    expect(field.value).toBe(`${window.location.origin}${CLIP}`);
  });

  it("uses the browser's share sheet where there is one", async () => {
    const share = vi.fn(async (_data: ShareData) => {});
    vi.stubGlobal('navigator', { ...navigator, share });
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Link teilen' }));
    await waitFor(() =>
      expect(share).toHaveBeenCalledWith({
        title: expect.stringMatching(/^Zeitraffer Rapperswil Seedamm/),
        url: `${window.location.origin}${CLIP}`,
      }),
    );
  });
});
