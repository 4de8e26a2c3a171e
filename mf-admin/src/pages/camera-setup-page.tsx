import { LAYER_LEVELS, type Layer, type Webcam } from '@lakecams/contracts';
import type { AuthState } from '@lakecams/session';
import { FormCard, PageFrame, SelectField, useForm } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { AccessGuard } from '../access/access-guard.tsx';
import { ConfirmDialog } from '../actions/confirm-dialog.tsx';
import { LoadStatus } from '../loading/load-status.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';
import { CameraEmbed } from '../setup/camera-embed.tsx';
import { PlayerEmbed } from '../setup/player-embed.tsx';
import { LayerEditorDialog } from '../setup/layer-editor-dialog.tsx';
import { LayerGroup } from '../setup/layer-group.tsx';
import { LEVEL_TITLES } from '../setup/layer-levels.ts';
import { layersOf, newLayer } from '../setup/layers.ts';
import { useCameraLayers } from '../setup/use-camera-layers.ts';

/** Users with referers and admins (docs/decisions.md, "Menu: Camera setup"). */
export const mayConfigureCameras = (state: AuthState) => state.isAdmin || state.hasReferes;

/** The urls to choose from, each once (an admin sees the same url of several users). */
export function distinctUrls(referers: readonly { url: string }[]): string[] {
  return [...new Set(referers.map((referer) => referer.url))];
}

/** The configure-referer page (edit/referer/cameras): a url, a camera, then that camera's layers. */
export function CameraSetupPage() {
  return (
    <PageFrame title="Kamera-Einrichtung">
      <AccessGuard
        allows={mayConfigureCameras}
        deniedText="Diese Seite ist Benutzern mit Referern und Administratoren vorbehalten."
      >
        <CameraSetup />
      </AccessGuard>
    </PageFrame>
  );
}

function CameraSetup() {
  const api = useAdminApi();
  const choice = useForm<'url' | 'cameraId'>({ url: '', cameraId: '' }, () => ({}));
  const { url, cameraId } = choice.values;
  const referers = useLoaded(() => api.referers(), 'Die Seiten konnten nicht geladen werden.', [api]);
  const cameras = useLoaded(
    url ? () => api.configurableCameras(url) : null,
    'Die Webcams konnten nicht geladen werden.',
    [api, url],
  );
  const urls = distinctUrls(referers.data ?? []);
  // While another url's cameras load, the list shown is not theirs.
  const cameraList = cameras.loading ? undefined : cameras.data;
  const webcam = cameraList?.find((camera) => String(camera.id) === cameraId) ?? null;

  // The first entry is chosen by default; a choice that is no longer offered falls back to it.
  const { setValue } = choice;
  const offeredUrl = referers.data ? (urls.includes(url) ? url : (urls[0] ?? '')) : url;
  const offeredCamera = cameraList ? String((webcam ?? cameraList[0])?.id ?? '') : cameraId;
  useEffect(() => {
    if (offeredUrl !== url) setValue('url', offeredUrl);
  }, [offeredUrl, url, setValue]);
  useEffect(() => {
    if (offeredCamera !== cameraId) setValue('cameraId', offeredCamera);
  }, [offeredCamera, cameraId, setValue]);

  return (
    <>
      <div className="admin-section">
        <FormCard title="Seite und Webcam">
          <LoadStatus loaded={referers} loadingText="Seiten werden geladen …" />
          {referers.data?.length === 0 && <p className="muted">Es sind noch keine Seiten (Referer) eingetragen.</p>}
          <div className="form-row">
            <SelectField
              field={choice.field('url')}
              label="Seite (URL)"
              placeholder="Bitte wählen"
              options={urls.map((value) => ({ value, label: value }))}
            />
            <SelectField
              field={choice.field('cameraId')}
              label="Webcam"
              placeholder={url ? 'Bitte wählen' : 'Zuerst eine Seite wählen'}
              options={(cameraList ?? []).map((camera) => ({ value: String(camera.id), label: camera.name }))}
            />
          </div>
          <LoadStatus loaded={cameras} loadingText="Webcams werden geladen …" />
          {url && cameraList?.length === 0 && <p className="muted">Für diese Seite ist keine Webcam freigegeben.</p>}
        </FormCard>
      </div>
      {webcam && <CameraLayers key={`${url} ${webcam.id}`} url={url} webcam={webcam} />}
    </>
  );
}

/** How long after a layer change the preview is loaded once more. */
export const LAYER_SETTLE_MS = 1500;

type LayerDialog = { kind: 'edit' | 'delete'; layer: Layer };

function CameraLayers({ url, webcam }: { url: string; webcam: Webcam }) {
  const api = useAdminApi();
  const layers = useCameraLayers(url, webcam.id);
  const [dialog, setDialog] = useState<LayerDialog | null>(null);
  // Bumped after every layer change: thumbnails and the composed preview load again.
  const [imageVersion, setImageVersion] = useState(() => Date.now());
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (changes === 0) return;
    // Image delivery hears of a layer change by event, a moment later: look once more then.
    const timer = setTimeout(() => setImageVersion(Date.now()), LAYER_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [changes]);
  const changed = () => {
    setImageVersion(Date.now());
    setChanges((count) => count + 1);
  };
  const close = () => setDialog(null);

  return (
    <>
      <PlayerEmbed webcam={webcam} url={url} />
      <CameraEmbed webcam={webcam} url={url} imageVersion={imageVersion} />
      <section className="admin-section" aria-labelledby="layers-heading">
        <h2 id="layers-heading">Layer für {webcam.name}</h2>
        <div className="layer-groups">
          {LAYER_LEVELS.map((level) => (
            <LayerGroup
              key={level}
              level={level}
              layers={layersOf(layers.layers, level)}
              status={layers.status[level]}
              imageVersion={imageVersion}
              onAdd={() => setDialog({ kind: 'edit', layer: newLayer(level, url, webcam.id) })}
              onEdit={(layer) => setDialog({ kind: 'edit', layer })}
              onDelete={(layer) => setDialog({ kind: 'delete', layer })}
              onReload={() => void layers.loadLevel(level)}
            />
          ))}
        </div>
      </section>
      {dialog?.kind === 'edit' && (
        <LayerEditorDialog
          layer={dialog.layer}
          onSaved={(saved) => {
            layers.saved(saved);
            changed();
            close();
          }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={`${LEVEL_TITLES[dialog.layer.level]}: Layer ${dialog.layer.id} löschen`}
          confirmLabel="Löschen"
          failure="Der Layer konnte nicht gelöscht werden."
          onConfirm={async () => {
            await api.deleteLayer(dialog.layer.id, webcam.id);
            layers.removed(dialog.layer.id);
            changed();
          }}
          onClose={close}
        >
          <p>Der Layer und sein Bild werden gelöscht.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
