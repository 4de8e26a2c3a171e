import { describe, expect, it } from 'vitest';
import { expandPattern } from '../src/capture/camera-fetch.ts';

describe('camera URL placeholders', () => {
  it('become the local date and time of the tick; unknown ones stay', () => {
    expect(
      expandPattern('https://cam.example/{yyyy}/{MM}/{dd}/{HH}{mm}.jpg?x={unknown}', new Date('2026-07-01T10:05:30Z')),
    ).toBe('https://cam.example/2026/07/01/1205.jpg?x={unknown}');
  });
});
