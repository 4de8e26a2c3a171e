import { type Layer, type LayerLevel, MAX_TIME_LAYERS_PER_CAMERA } from '@lakecams/contracts';
import { Notice } from '@lakecams/ui-kit';
import { LayerImage } from './layer-image.tsx';
import { LEVEL_DESCRIPTIONS, LEVEL_TITLES } from './layer-levels.ts';
import type { LevelStatus } from './use-camera-layers.ts';

/** One of the three layer groups of a url and camera: its layers, add, edit, delete and reload. */
export function LayerGroup({
  level,
  layers,
  status,
  imageVersion,
  onAdd,
  onEdit,
  onDelete,
  onReload,
}: {
  level: LayerLevel;
  layers: readonly Layer[];
  status: LevelStatus;
  imageVersion: number;
  onAdd: () => void;
  onEdit: (layer: Layer) => void;
  onDelete: (layer: Layer) => void;
  onReload: () => void;
}) {
  const headingId = `layer-group-${level}`;
  const full = level === 'TIME' && layers.length >= MAX_TIME_LAYERS_PER_CAMERA;
  return (
    <section className="layer-group" aria-labelledby={headingId}>
      <div className="section-header">
        <h3 id={headingId}>
          {LEVEL_TITLES[level]} <span className="muted">({layers.length})</span>
        </h3>
        <div className="toolbar">
          <button
            type="button"
            className="button--small"
            aria-label={`Layer hinzufügen (${LEVEL_TITLES[level]})`}
            onClick={onAdd}
            disabled={full}
          >
            Layer hinzufügen
          </button>
          <button
            type="button"
            className="button--small button--secondary"
            aria-label={`Neu laden (${LEVEL_TITLES[level]})`}
            onClick={onReload}
          >
            Neu laden
          </button>
        </div>
      </div>
      <p className="muted">{LEVEL_DESCRIPTIONS[level]}</p>
      {full && <p className="muted">Höchstens {MAX_TIME_LAYERS_PER_CAMERA} Werbungen pro Kamera.</p>}
      {typeof status === 'object' && (
        <Notice tone="error">
          <p>{status.failure}</p>
        </Notice>
      )}
      {status === 'loading' && layers.length === 0 && <p className="muted">Layer werden geladen …</p>}
      {status === 'ready' && layers.length === 0 && <p className="muted">Keine Layer.</p>}
      {layers.length > 0 && (
        <ul className="layer-list" aria-label={LEVEL_TITLES[level]}>
          {layers.map((layer) => (
            <li key={layer.id} className="layer-card">
              <LayerImage
                layerId={layer.id}
                cameraId={layer.cameraId}
                version={imageVersion}
                alt={`Bild von Layer ${layer.id}`}
              />
              <div className="layer-card__text">
                <strong>Layer {layer.id}</strong>
                <span>
                  Cron <code>{layer.cron}</code>
                </span>
                <span className={layer.enabled ? 'state state--on' : 'state state--off'}>
                  {layer.enabled ? 'Aktiv' : 'Inaktiv'}
                </span>
              </div>
              <div className="layer-card__actions">
                <button
                  type="button"
                  className="button--small button--secondary"
                  aria-label={`Layer ${layer.id} bearbeiten`}
                  onClick={() => onEdit(layer)}
                >
                  Bearbeiten
                </button>
                <button
                  type="button"
                  className="button--small button--danger"
                  aria-label={`Layer ${layer.id} löschen`}
                  onClick={() => onDelete(layer)}
                >
                  Löschen
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
