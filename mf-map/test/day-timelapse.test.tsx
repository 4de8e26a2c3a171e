import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timelapseUrl } from '../src/api/picture-urls.ts';
import { DayTimelapse } from '../src/camera/day-timelapse.tsx';

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
    expect(lead(container)).toMatch(/in 0.1 Sekunden \(1 Bild\), laufend ergänzt\.$/);
  });

  it('says how long the clip plays as it is, at 12 pictures a second', () => {
    const says = (pictures: number) => {
      const { container } = show({ pictures });
      const text = lead(container)?.replace('Samstag, 21. November 2026 in ', '');
      cleanup();
      return text;
    };
    expect(says(6)).toBe('0.5 Sekunden (6 Bilder).');
    expect(says(12)).toBe('1 Sekunde (12 Bilder).');
    expect(says(29)).toBe('2.4 Sekunden (29 Bilder).');
    expect(says(288)).toBe('24 Sekunden (288 Bilder).');
    expect(says(720)).toBe('1 Minute (720 Bilder).');
    expect(says(866)).toBe('1 Minute und 12 Sekunden (866 Bilder).');
    expect(says(1452)).toBe('2 Minuten und 1 Sekunde (1452 Bilder).');
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
