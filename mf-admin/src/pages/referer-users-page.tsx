import type { RefererUser } from '@lakecams/contracts';
import { type Column, DataTable, PageFrame } from '@lakecams/ui-kit';
import { useState } from 'react';
import { RefererUserDialog } from '../referers/referer-user-dialog.tsx';
import { ADMIN_ONLY, AccessGuard, isAdmin } from '../access/access-guard.tsx';
import { ConfirmDialog } from '../actions/confirm-dialog.tsx';
import { TableSection } from '../lists/table-section.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';

type OpenDialog = { kind: 'add' } | { kind: 'edit' | 'delete'; referer: RefererUser };

/** Referer-user editing (edit/referers): users and the pages that embed their camera images. */
export function RefererUsersPage() {
  return (
    <PageFrame title="Referer bearbeiten">
      <AccessGuard allows={isAdmin} deniedText={ADMIN_ONLY}>
        <RefererUsers />
      </AccessGuard>
    </PageFrame>
  );
}

function RefererUsers() {
  const api = useAdminApi();
  const referers = useLoaded(() => api.refererUsers(), 'Die Referer konnten nicht geladen werden.', [api]);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const close = () => setDialog(null);

  const columns: Column<RefererUser>[] = [
    { label: 'Benutzer', cell: (referer) => referer.userEmail },
    {
      label: 'URL',
      cell: (referer) => (
        <a href={referer.url} target="_blank" rel="noopener noreferrer">
          {referer.url}
        </a>
      ),
    },
    {
      label: 'Aktionen',
      actions: true,
      cell: (referer) => (
        <div className="row-actions">
          <button
            type="button"
            className="button--small button--secondary"
            aria-label={`Bearbeiten ${referer.userEmail} ${referer.url}`}
            onClick={() => setDialog({ kind: 'edit', referer })}
          >
            Bearbeiten
          </button>
          <button
            type="button"
            className="button--small button--danger"
            aria-label={`Löschen ${referer.userEmail} ${referer.url}`}
            onClick={() => setDialog({ kind: 'delete', referer })}
          >
            Löschen
          </button>
        </div>
      ),
    },
  ];

  return (
    <TableSection
      id="referers-heading"
      title="Referer"
      addLabel="Referer hinzufügen"
      onAdd={() => setDialog({ kind: 'add' })}
      loaded={referers}
      loadingText="Referer werden geladen …"
    >
      {referers.data && (
        <DataTable
          caption={`${referers.data.length} Referer`}
          columns={columns}
          rows={referers.data}
          rowKey={(referer) => String(referer.id)}
        />
      )}
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <RefererUserDialog
          referer={dialog.kind === 'edit' ? dialog.referer : null}
          onSaved={(list) => {
            referers.update(() => list);
            close();
          }}
          onFailed={referers.reload}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title="Referer löschen"
          confirmLabel="Löschen"
          failure="Der Referer konnte nicht gelöscht werden."
          onConfirm={async () => {
            await api.removeRefererUser(dialog.referer.id);
            referers.reload();
          }}
          onClose={close}
        >
          <p>
            <strong>{dialog.referer.url}</strong> von {dialog.referer.userEmail} wird gelöscht.
          </p>
        </ConfirmDialog>
      )}
    </TableSection>
  );
}
