import type { Layer } from '@lakecams/contracts';
import { describe, expect, it } from 'vitest';
import {
  bookingFormValues,
  bookingToSave,
  dayOf,
  newBooking,
  today,
  validateBooking,
} from '../src/cameras/bookings.ts';
import { initialPosition, positionToSave } from '../src/cameras/image-position-dialog.tsx';
import { embedImageUrl, pagePreviewUrl } from '../src/api/picture-urls.ts';
import { embedSnippet } from '../src/setup/embed-snippet.ts';
import { layersOf, newLayer, withLevelLoaded } from '../src/setup/layers.ts';
import { removeById, replaceOrAppend } from '../src/lists/list-updates.ts';

describe('referer bookings', () => {
  it('start a new booking today in Zurich, quality POOR, without a user', () => {
    // 23:30 UTC on 21 November is already 22 November in Zurich.
    const now = new Date('2026-11-21T23:30:00Z');
    expect(newBooking(7, now)).toEqual({
      id: 0,
      start: '2026-11-22',
      end: '2026-11-22',
      webcamId: 7,
      quality: 'POOR',
      refererUserId: null,
      refererUserText: null,
    });
    expect(today(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(today(new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });

  it('are sent at day level with the chosen user, or none', () => {
    const booking = { ...newBooking(3), id: 12, start: '2026-11-01T00:00:00.000Z', end: '2026-11-30T00:00:00.000Z' };
    const values = bookingFormValues(booking);
    expect(values).toEqual({ start: '2026-11-01', end: '2026-11-30', quality: 'POOR', refererUserId: '' });
    expect(bookingToSave(booking, { ...values, end: '2026-12-24T10:00', quality: 'HIGH', refererUserId: '5' })).toEqual(
      {
        ...booking,
        start: '2026-11-01',
        end: '2026-12-24',
        quality: 'HIGH',
        refererUserId: 5,
      },
    );
    expect(bookingToSave(booking, values).refererUserId).toBeNull();
    expect(dayOf('2026-11-22')).toBe('2026-11-22');
  });

  it('must not end before they start', () => {
    const values = { start: '2026-11-10', end: '2026-11-09', quality: 'LOW', refererUserId: '' };
    expect(validateBooking(values)).toEqual({ end: 'Das Ende liegt vor dem Start' });
    expect(validateBooking({ ...values, end: '2026-11-10' })).toEqual({});
    expect(validateBooking({ start: '', end: '', quality: '', refererUserId: '' })).toEqual({
      start: 'Start wird benötigt',
      end: 'Ende wird benötigt',
      quality: 'Qualität wird benötigt',
    });
  });
});

describe('saved items in a list', () => {
  const list = [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ];
  it('replace the item with the same id in place, or are appended', () => {
    expect(replaceOrAppend(list, { id: 2, name: 'B' })).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'B' },
    ]);
    expect(replaceOrAppend(list, { id: 3, name: 'c' }).map((item) => item.id)).toEqual([1, 2, 3]);
    expect(removeById(list, 1)).toEqual([{ id: 2, name: 'b' }]);
    expect(list).toHaveLength(2);
  });
});

describe('layers', () => {
  const layer = (id: number, level: Layer['level']): Layer => ({
    id,
    level,
    cron: '* * * * *',
    enabled: true,
    url: 'https://partner.ch/',
    cameraId: 4,
  });

  it('start every minute, enabled, without an id', () => {
    expect(newLayer('TIME', 'https://partner.ch/', 4)).toEqual({
      id: 0,
      level: 'TIME',
      cron: '* * * * *',
      enabled: true,
      url: 'https://partner.ch/',
      cameraId: 4,
    });
  });

  it('loading a level replaces only that level', () => {
    const before = [layer(1, 'BASE'), layer(2, 'TIME'), layer(3, 'TIME'), layer(4, 'OFFLINE')];
    const after = withLevelLoaded(before, 'TIME', [layer(5, 'TIME')]);
    expect(layersOf(after, 'TIME').map((l) => l.id)).toEqual([5]);
    expect(layersOf(after, 'BASE').map((l) => l.id)).toEqual([1]);
    expect(layersOf(after, 'OFFLINE').map((l) => l.id)).toEqual([4]);
    expect(withLevelLoaded(before, 'BASE', []).map((l) => l.id)).toEqual([2, 3, 4]);
  });
});

describe('the embed code', () => {
  it('is an <img> of the absolute image address with the size, an alt text and a policy sending the page’s path', () => {
    expect(embedSnippet('https://seecam.example', 'Rapperswil-Seedamm', { width: 1920, height: 1080 })).toBe(
      '<img src="https://seecam.example/api/Image/Get/camera/Rapperswil-Seedamm.jpg" width="1920" height="1080" alt="Webcam Rapperswil-Seedamm – Seecam Zürichsee" referrerpolicy="no-referrer-when-downgrade">',
    );
  });

  it('leaves the size out while it is unknown and escapes what it puts in attributes', () => {
    const snippet = embedSnippet('http://localhost:8080', 'Au', null);
    expect(snippet).toBe(
      '<img src="http://localhost:8080/api/Image/Get/camera/Au.jpg" alt="Webcam Au – Seecam Zürichsee" referrerpolicy="no-referrer-when-downgrade">',
    );
    expect(embedSnippet('http://x.ch', 'a"b', null)).toContain('alt="Webcam a&quot;b');
    expect(embedImageUrl('http://x.ch', 'a b')).toBe('http://x.ch/api/Image/Get/camera/a%20b.jpg');
  });

  it('previews as the partner page gets it, past every cache', () => {
    expect(pagePreviewUrl('Au', 'https://hotel.ch/see?x=1', 17)).toBe(
      '/api/Image/Get/camera/Au.jpg?page=https%3A%2F%2Fhotel.ch%2Fsee%3Fx%3D1&v=17',
    );
    expect(pagePreviewUrl('Au', 'https://hotel.ch/', 18)).not.toBe(pagePreviewUrl('Au', 'https://hotel.ch/', 17));
  });
});

describe('the position dialog', () => {
  it('starts at 0 without a position and at the camera’s position otherwise', () => {
    expect(initialPosition(null)).toEqual({ lat: '0', lng: '0', direction: '0' });
    expect(initialPosition({ lat: 0, lng: 0, direction: 90 })).toEqual({ lat: '0', lng: '0', direction: '0' });
    expect(initialPosition({ lat: 47.22, lng: 8.81, direction: 200 })).toEqual({
      lat: '47.22',
      lng: '8.81',
      direction: '200',
    });
  });

  it('sends numbers and the current minute as the image name', () => {
    expect(positionToSave(3, { lat: '47.2', lng: '8.7', direction: '45' }, new Date('2026-11-22T13:05:40Z'))).toEqual({
      webcamId: 3,
      lat: 47.2,
      lng: 8.7,
      direction: 45,
      name: '202611221405',
    });
  });
});
