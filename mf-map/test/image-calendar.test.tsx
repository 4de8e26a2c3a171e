import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImageCalendar, monthWeeks } from '../src/camera/image-calendar.tsx';
import { shiftMonth } from '../src/camera/image-days.tsx';
import { stubApi } from './fixtures.tsx';

const MONTHS: Record<string, string[]> = {
  '2026-11': ['2026-11-01', '2026-11-21', '2026-11-22'],
  '2026-10': ['2026-10-03'],
};

function stubDays() {
  return stubApi({
    '/api/Webcam/GetImageDays': (url) => {
      const month = url.searchParams.get('month') ?? '';
      return Response.json({
        camera: 'Rapperswil',
        month,
        days: MONTHS[month] ?? [],
        first: '2025-11-02',
        last: '2026-11-22',
      });
    },
  });
}

const dayButton = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('the camera page calendar', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lays a month out in weeks from Monday', () => {
    const weeks = monthWeeks('2026-11');
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(weeks.at(-1)?.[0]).toBe('2026-11-30');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });

  it('offers the days with pictures and opens the chosen one in the slider', async () => {
    stubDays();
    const chosen: string[] = [];
    render(<ImageCalendar camera="Rapperswil" day="2026-11-22" onSelectDay={(day) => chosen.push(day)} />);
    expect(screen.getByRole('heading', { name: 'November 2026' })).toBeTruthy();
    await vi.waitFor(() => expect(dayButton('21. November 2026').disabled).toBe(false));
    expect(dayButton('20. November 2026, keine Bilder').disabled).toBe(true);
    expect(dayButton('22. November 2026').getAttribute('aria-current')).toBe('date');
    fireEvent.click(dayButton('21. November 2026'));
    expect(chosen).toEqual(['2026-11-21']);
  });

  it('turns to earlier months with archived days, and not past the last day', async () => {
    stubDays();
    const chosen: string[] = [];
    render(<ImageCalendar camera="Rapperswil" day="2026-11-22" onSelectDay={(day) => chosen.push(day)} />);
    const next = screen.getByRole('button', { name: 'Nächster Monat' }) as HTMLButtonElement;
    await vi.waitFor(() => expect(dayButton('21. November 2026').disabled).toBe(false));
    expect(next.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Vorheriger Monat' }));
    await vi.waitFor(() => expect(dayButton('3. Oktober 2026').disabled).toBe(false));
    fireEvent.click(dayButton('3. Oktober 2026'));
    expect(chosen).toEqual(['2026-10-03']);
  });
});
