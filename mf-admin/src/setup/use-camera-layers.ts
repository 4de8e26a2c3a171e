import { LAYER_LEVELS, type Layer, type LayerLevel } from '@lakecams/contracts';
import { failureMessage } from '@lakecams/ui-kit';
import { useCallback, useEffect, useRef, useState } from 'react';
import { removeById, replaceOrAppend } from '../lists/list-updates.ts';
import { useAdminApi } from '../api/use-admin-api.ts';
import { withLevelLoaded } from './layers.ts';

export type LevelStatus = 'loading' | 'ready' | { failure: string };

/** The layers of one url and camera, all three levels in one list (how it changes: layers.ts, list-updates.ts). */
export function useCameraLayers(url: string, cameraId: number) {
  const api = useAdminApi();
  const [layers, setLayers] = useState<Layer[]>([]);
  const [status, setStatus] = useState<Record<LayerLevel, LevelStatus>>({
    BASE: 'loading',
    TIME: 'loading',
    OFFLINE: 'loading',
  });
  // Answers for an url and camera chosen before are dropped.
  const selection = useRef(0);

  const loadLevel = useCallback(
    async (level: LayerLevel) => {
      const mine = selection.current;
      setStatus((current) => ({ ...current, [level]: 'loading' }));
      try {
        const loaded = await api.layers(url, level, cameraId);
        if (mine !== selection.current) return;
        setLayers((current) => withLevelLoaded(current, level, loaded));
        setStatus((current) => ({ ...current, [level]: 'ready' }));
      } catch (error) {
        if (mine !== selection.current) return;
        console.error(`Loading the ${level} layers failed`, error);
        const failure = failureMessage(error, 'Die Layer konnten nicht geladen werden.');
        setStatus((current) => ({ ...current, [level]: { failure } }));
      }
    },
    [api, url, cameraId],
  );

  useEffect(() => {
    selection.current++;
    setLayers([]);
    for (const level of LAYER_LEVELS) void loadLevel(level);
  }, [loadLevel]);

  return {
    layers,
    status,
    loadLevel,
    saved: useCallback((layer: Layer) => setLayers((current) => replaceOrAppend(current, layer)), []),
    removed: useCallback((id: number) => setLayers((current) => removeById(current, id)), []),
  };
}
