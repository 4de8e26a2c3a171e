import { cameraPath, type Webcam } from '@lakecams/contracts';
import { type Column, DataTable, PageFrame } from '@lakecams/ui-kit';
import { useState } from 'react';
import { Link } from 'react-router';
import { CameraConfigurationDialog } from '../cameras/camera-configuration-dialog.tsx';
import { CameraEditDialog } from '../cameras/camera-edit-dialog.tsx';
import { CameraPermissionsDialog } from '../cameras/camera-permissions-dialog.tsx';
import { CameraReferersDialog } from '../cameras/camera-referers-dialog.tsx';
import { CameraSourceDialog } from '../cameras/camera-source-dialog.tsx';
import { ImagePositionDialog } from '../cameras/image-position-dialog.tsx';
import { ImageUploadDialog } from '../cameras/image-upload-dialog.tsx';
import { NewsForm } from '../cameras/news-form.tsx';
import { ADMIN_ONLY, AccessGuard, isAdmin } from '../access/access-guard.tsx';
import { ConfirmDialog } from '../actions/confirm-dialog.tsx';
import { TableSection } from '../lists/table-section.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';
import { RowActions } from '../lists/row-actions.tsx';
import { HealthBadge, useCamerasHealth } from '../jobs/camera-health.tsx';

/** The dialog open on the page, if any, and the camera it is about. */
type OpenDialog =
  | { kind: 'add' }
  | {
      kind: 'edit' | 'source' | 'permissions' | 'referers' | 'configuration' | 'position' | 'upload' | 'remove';
      webcam: Webcam;
    };

type RowAction = Exclude<OpenDialog['kind'], 'add'>;

const ROW_ACTIONS: { kind: RowAction; label: string }[] = [
  { kind: 'permissions', label: 'Berechtigungen' },
  { kind: 'referers', label: 'Referer' },
  { kind: 'configuration', label: 'Konfiguration' },
  { kind: 'position', label: 'Position' },
  { kind: 'edit', label: 'Bearbeiten' },
  { kind: 'source', label: 'Bildquelle' },
  { kind: 'upload', label: 'Bild hochladen' },
  { kind: 'remove', label: 'Entfernen' },
];

/** Camera administration (edit/webcams), plus the news banner text. */
export function CameraAdministrationPage() {
  return (
    <PageFrame title="Webcams bearbeiten">
      <AccessGuard allows={isAdmin} deniedText={ADMIN_ONLY}>
        <CameraAdministration />
      </AccessGuard>
    </PageFrame>
  );
}

function CameraAdministration() {
  const api = useAdminApi();
  const cameras = useLoaded(() => api.cameras(), 'Die Webcams konnten nicht geladen werden.', [api]);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const health = useCamerasHealth();
  const close = () => setDialog(null);
  const savedAndClose = () => {
    setDialog(null);
    cameras.reload();
  };

  const columns: Column<Webcam>[] = [
    { label: 'Name', cell: (webcam) => webcam.name },
    { label: 'Distanz km', cell: (webcam) => webcam.distance.toLocaleString('de-CH') },
    { label: 'Blickwinkel', cell: (webcam) => `${webcam.angle}°` },
    { label: 'Intervall', cell: (webcam) => `${webcam.intervalMin} min` },
    { label: 'Typ', cell: (webcam) => webcam.webcamType },
    { label: 'Pattern', cell: (webcam) => <span className="pattern-url">{webcam.pattern}</span> },
    { label: 'Zustand', cell: (webcam) => <HealthBadge health={health.get(webcam.id)} /> },
    {
      label: 'Aktionen',
      actions: true,
      cell: (webcam) => (
        <RowActions subject={webcam.name}>
          <Link className="row-actions__link" to={cameraPath(webcam.name)} aria-label={`Ansehen ${webcam.name}`}>
            Ansehen
          </Link>
          {ROW_ACTIONS.map((action) => (
            <button
              key={action.kind}
              type="button"
              className={action.kind === 'remove' ? 'button--small button--danger' : 'button--small button--secondary'}
              aria-label={`${action.label} ${webcam.name}`}
              onClick={() => setDialog({ kind: action.kind, webcam })}
            >
              {action.label}
            </button>
          ))}
        </RowActions>
      ),
    },
  ];

  return (
    <>
      <TableSection
        id="cameras-heading"
        title="Webcams"
        addLabel="Webcam hinzufügen"
        onAdd={() => setDialog({ kind: 'add' })}
        loaded={cameras}
        loadingText="Webcams werden geladen …"
      >
        {cameras.data && (
          <div className="camera-table">
            <DataTable
              caption={`${cameras.data.length} Webcams`}
              columns={columns}
              rows={cameras.data}
              rowKey={(webcam) => String(webcam.id)}
            />
          </div>
        )}
      </TableSection>
      <section className="admin-section">
        <NewsForm />
      </section>
      {dialog?.kind === 'add' && <CameraEditDialog webcam={null} onSaved={savedAndClose} onClose={close} />}
      {dialog?.kind === 'edit' && <CameraEditDialog webcam={dialog.webcam} onSaved={savedAndClose} onClose={close} />}
      {dialog?.kind === 'source' && <CameraSourceDialog webcam={dialog.webcam} onClose={close} />}
      {dialog?.kind === 'permissions' && <CameraPermissionsDialog webcam={dialog.webcam} onClose={close} />}
      {dialog?.kind === 'referers' && <CameraReferersDialog webcam={dialog.webcam} onClose={close} />}
      {dialog?.kind === 'configuration' && <CameraConfigurationDialog webcam={dialog.webcam} onClose={close} />}
      {dialog?.kind === 'position' && <ImagePositionDialog webcam={dialog.webcam} onClose={close} />}
      {dialog?.kind === 'upload' && <ImageUploadDialog webcam={dialog.webcam} onClose={close} />}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title={`Webcam ${dialog.webcam.name} entfernen`}
          confirmLabel="Entfernen"
          failure="Die Webcam konnte nicht entfernt werden."
          onConfirm={async () => {
            await api.removeCamera(dialog.webcam);
            cameras.reload();
          }}
          onClose={close}
        >
          <p>
            Die Webcam <strong>{dialog.webcam.name}</strong> wird mit ihren Bildern, Berechtigungen, Konfigurationen und
            Buchungen entfernt.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
