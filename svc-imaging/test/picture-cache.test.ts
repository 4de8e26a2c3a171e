import { pictureCacheLookups, Registry } from '@lakecams/service-kit';
import { describe, expect, it } from 'vitest';
import { PictureCache } from '../src/delivery/picture-cache.ts';

const bytes = (n: number) => Buffer.alloc(n, 1);

describe('PictureCache', () => {
  it('keeps within its byte budget, dropping the least recently used first', () => {
    const cache = new PictureCache(300);
    cache.set('1|a|POOR|b1', bytes(100));
    cache.set('1|b|POOR|b1', bytes(100));
    cache.set('2|a|POOR|b1', bytes(100));
    expect(cache.get('1|a|POOR|b1')).toBeDefined();
    cache.set('2|b|POOR|b1', bytes(100));
    expect(cache.has('1|b|POOR|b1')).toBe(false);
    expect(cache.has('1|a|POOR|b1')).toBe(true);
    expect(cache.size).toEqual({ entries: 3, bytes: 300 });
  });

  it('forgets one camera without touching the others, and ignores pictures larger than the budget', () => {
    const cache = new PictureCache(1000);
    cache.set(PictureCache.key(1, '202611220600', 'LOW', 'b1'), bytes(10));
    cache.set(PictureCache.key(12, '202611220600', 'LOW', 'b1'), bytes(10));
    cache.set(PictureCache.key(3, '202611220600', 'LOW', 'b1'), bytes(2000));
    cache.forgetCamera(1);
    expect(cache.size).toEqual({ entries: 1, bytes: 10 });
    expect(cache.has(PictureCache.key(12, '202611220600', 'LOW', 'b1'))).toBe(true);
  });

  it('counts each look-up as a hit or a miss, per cache', async () => {
    const registry = new Registry();
    const composed = new PictureCache(1000, pictureCacheLookups(registry, 'composed'));
    const recent = new PictureCache(1000, pictureCacheLookups(registry, 'recent'));
    composed.set('1|a|POOR|b1', bytes(10));
    composed.get('1|a|POOR|b1');
    composed.get('1|a|POOR|b1');
    composed.get('1|b|POOR|b1');
    // `has` answers a header, not a request for the picture: not counted.
    composed.has('1|a|POOR|b1');
    recent.get('1|a|POOR|b1');
    const counted = (await registry.getSingleMetric('lakecams_picture_cache_lookups_total')?.get())?.values ?? [];
    expect(Object.fromEntries(counted.map((v) => [`${v.labels.cache} ${v.labels.result}`, v.value]))).toEqual({
      'composed hit': 2,
      'composed miss': 1,
      'recent hit': 0,
      'recent miss': 1,
    });
  });
});
