import { pictureCacheLookups, Registry } from '@lakecams/service-kit';
import { describe, expect, it } from 'vitest';
import { GatewayPictureCache } from '../src/picture-cache.ts';

describe('GatewayPictureCache look-ups', () => {
  it('counts a kept picture as a hit, an unknown or expired one as a miss', async () => {
    const registry = new Registry();
    const cache = new GatewayPictureCache(1000, pictureCacheLookups(registry, 'gateway'));
    const answer = { statusCode: 200, headers: {}, body: Buffer.alloc(10) };
    cache.offer('/pictures/Ufer/a.jpg', answer, { 'cache-control': 'public, max-age=30' }, 0);
    expect(cache.get('/pictures/Ufer/a.jpg', 1_000)).toBeDefined();
    expect(cache.get('/pictures/Ufer/b.jpg', 1_000)).toBeUndefined();
    expect(cache.get('/pictures/Ufer/a.jpg', 30_000)).toBeUndefined();
    const text = await registry.metrics();
    expect(text).toContain('lakecams_picture_cache_lookups_total{cache="gateway",result="hit"} 1');
    expect(text).toContain('lakecams_picture_cache_lookups_total{cache="gateway",result="miss"} 2');
  });
});
