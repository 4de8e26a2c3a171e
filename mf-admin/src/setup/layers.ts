import { type Layer, type LayerLevel, NEW_LAYER_CRON } from '@lakecams/contracts';

/** A new layer runs every minute and is enabled; it has no id until it is saved. */
export function newLayer(level: LayerLevel, url: string, cameraId: number): Layer & { id: 0 } {
  return { id: 0, level, cron: NEW_LAYER_CRON, enabled: true, url, cameraId };
}

/** Loading a level replaces that level's layers and keeps the others. */
export function withLevelLoaded(layers: readonly Layer[], level: LayerLevel, loaded: readonly Layer[]): Layer[] {
  return [...layers.filter((layer) => layer.level !== level), ...loaded];
}

export function layersOf(layers: readonly Layer[], level: LayerLevel): Layer[] {
  return layers.filter((layer) => layer.level === level);
}
