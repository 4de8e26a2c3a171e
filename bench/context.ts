import { type TileServer, startTileServer } from '../e2e/tile-server.ts';
import { log } from './harness.ts';
import { type Nginx, startNginx } from './nginx.ts';
import { type BenchPortal, removeFrontendSnapshot, startEmbeddedBenchPortal } from './portals.ts';

/**
 * What several benchmarks share in one run: one embedded portal (started on first use, with local map
 * tiles for the browser), one nginx and one tile server. Benchmarks run in a fixed order, so the portal is
 * fresh for the idle memory figure and has its 1000 cameras only after the API benchmark seeded them.
 */
export interface BenchContext {
  embedded(): Promise<BenchPortal>;
  nginx(): Promise<Nginx>;
  /** Cameras listed by GetImages after seeding (the API benchmark seeds 1000). */
  seededCameras: number;
  close(): Promise<void>;
}

export function createBenchContext(): BenchContext {
  let embedded: Promise<BenchPortal> | undefined;
  let nginx: Promise<Nginx> | undefined;
  let tiles: Promise<TileServer> | undefined;
  const context: BenchContext = {
    seededCameras: 0,
    embedded() {
      embedded ??= (async () => {
        tiles ??= startTileServer();
        const { urlTemplate } = await tiles;
        log('starting the embedded portal');
        return startEmbeddedBenchPortal({ mapTiles: { url: urlTemplate, attribution: 'bench tiles' } });
      })();
      return embedded;
    },
    nginx() {
      nginx ??= startNginx();
      return nginx;
    },
    async close() {
      const closing = [embedded, nginx, tiles].map(async (resource) => {
        const started = await resource?.catch(() => undefined);
        await started?.close();
      });
      await Promise.all(closing);
      await removeFrontendSnapshot();
    },
  };
  return context;
}
