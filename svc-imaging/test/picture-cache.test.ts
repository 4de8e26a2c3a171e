import { describe, expect, it } from 'vitest';
import { PictureCache } from '../src/picture-cache.ts';

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
});
