import { PAGE_DATA_IDS } from '@lakecams/contracts';
import { keptPageData } from '@lakecams/ui-kit';
/** Run-time page settings served by the gateway (one build serves every deployment). */
export const PAGE_CONFIG_PATH = '/config.json';

export interface MapTiles {
  url: string;
  attribution: string;
}

/**
 * Near the lake, zoom 13 within 13 … 18, no wheel zoom, resize after 500 ms, clusters of 80 px, 15 px markers
 * (docs/product.md §4.2).
 */
export const MAP_VIEW = {
  // The upper basin between Halbinsel Au and Rapperswil: every demo camera is in view on a desktop.
  center: [47.229, 8.729] as [number, number],
  zoom: 13,
  minZoom: 13,
  maxZoom: 18,
  scrollWheelZoom: false,
  resizeAfterMs: 500,
  clusterRadius: 80,
  markerSize: 15,
} as const;

let tiles: Promise<MapTiles> | undefined;

async function pageConfig(): Promise<{ mapTiles?: Partial<MapTiles> }> {
  const inline = keptPageData<{ mapTiles?: Partial<MapTiles> }>(PAGE_DATA_IDS.pageConfig);
  if (inline) return inline;
  const response = await fetch(PAGE_CONFIG_PATH, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${PAGE_CONFIG_PATH} answered ${response.status}`);
  return (await response.json()) as { mapTiles?: Partial<MapTiles> };
}

/** The tiles the page settings name; null when they name none. */
export function mapTilesOf(config: { mapTiles?: Partial<MapTiles> } | undefined): MapTiles | null {
  const { url, attribution } = config?.mapTiles ?? {};
  if (typeof url !== 'string' || url === '') return null;
  return { url, attribution: typeof attribution === 'string' ? attribution : '' };
}

/** Read once per page, from its HTML where the gateway put it; a failure is forgotten so the next map tries again. */
export function loadMapTiles(): Promise<MapTiles> {
  tiles ??= pageConfig()
    .then((config) => {
      const found = mapTilesOf(config);
      if (!found) throw new Error(`${PAGE_CONFIG_PATH} names no mapTiles.url`);
      return found;
    })
    .catch((error: unknown) => {
      tiles = undefined;
      throw error;
    });
  return tiles;
}
