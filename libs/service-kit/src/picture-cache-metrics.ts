import { Counter, type Registry } from 'prom-client';

/** What a picture cache reports of each look-up. */
export interface CacheLookups {
  hit(): void;
  miss(): void;
}

const NAME = 'lakecams_picture_cache_lookups_total';

/**
 * Counts look-ups of one picture cache as `lakecams_picture_cache_lookups_total{cache, result}`. Several caches
 * of an app share the counter, told apart by `cache`; both results start at 0 so rates exist from the start.
 */
export function pictureCacheLookups(registry: Registry, cache: string): CacheLookups {
  const counter =
    (registry.getSingleMetric(NAME) as Counter<'cache' | 'result'> | undefined) ??
    new Counter({
      name: NAME,
      help: 'Look-ups in a picture cache kept in memory, by cache and result (hit or miss)',
      labelNames: ['cache', 'result'],
      registers: [registry],
    });
  const hits = counter.labels({ cache, result: 'hit' });
  const misses = counter.labels({ cache, result: 'miss' });
  hits.inc(0);
  misses.inc(0);
  return { hit: () => hits.inc(), miss: () => misses.inc() };
}
