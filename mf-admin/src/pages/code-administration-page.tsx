import type { OwnedCodeAssignment } from '@lakecams/contracts';
import { type Column, DataTable, PageFrame } from '@lakecams/ui-kit';
import { useState } from 'react';
import { CreateCodesDialog } from '../codes/create-codes-dialog.tsx';
import { ADMIN_ONLY, AccessGuard, isAdmin } from '../access/access-guard.tsx';
import { ConfirmDialog } from '../actions/confirm-dialog.tsx';
import { TableSection } from '../lists/table-section.tsx';
import { useAdminApi } from '../api/use-admin-api.ts';
import { useLoaded } from '../loading/use-loaded.ts';

const REDEEMED = new Intl.DateTimeFormat('de-CH', { dateStyle: 'medium', timeStyle: 'short' });

function redeemedOn(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : REDEEMED.format(date);
}

const countOf = (n: number) => `${n} ${n === 1 ? 'eingelöster Code' : 'eingelöste Codes'}`;

type OpenDialog = { kind: 'create' } | { kind: 'remove'; assignment: OwnedCodeAssignment };

/** Every user's redeemed feature codes with their owners; each user sees only their own on /user. */
export function CodeAdministrationPage() {
  return (
    <PageFrame title="Codes verwalten">
      <AccessGuard allows={isAdmin} deniedText={ADMIN_ONLY}>
        <CodeAssignments />
      </AccessGuard>
    </PageFrame>
  );
}

function CodeAssignments() {
  const api = useAdminApi();
  const assignments = useLoaded(() => api.codeAssignments(), 'Die Codes konnten nicht geladen werden.', [api]);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const close = () => setDialog(null);

  const columns: Column<OwnedCodeAssignment>[] = [
    { label: 'Code', cell: (a) => <code className="code-value">{a.code}</code> },
    { label: 'Funktion', cell: (a) => a.feature },
    {
      label: 'Besitzer',
      cell: (a) => (
        <span className="code-owner">
          <strong>{a.userName}</strong>
          {a.email && <span className="muted">{a.email}</span>}
        </span>
      ),
    },
    { label: 'Eingelöst am', cell: (a) => redeemedOn(a.assignedAt) },
    {
      label: 'Aktionen',
      actions: true,
      cell: (a) => (
        <button
          type="button"
          className="button--small button--danger"
          aria-label={`Entfernen ${a.code} von ${a.userName}`}
          onClick={() => setDialog({ kind: 'remove', assignment: a })}
        >
          Entfernen
        </button>
      ),
    },
  ];

  return (
    <TableSection
      id="codes-heading"
      title="Eingelöste Codes"
      addLabel="Codes erstellen"
      onAdd={() => setDialog({ kind: 'create' })}
      loaded={assignments}
      loadingText="Codes werden geladen …"
    >
      {assignments.data?.length === 0 && <p className="muted">Noch keine Codes eingelöst.</p>}
      {!!assignments.data?.length && (
        <DataTable
          caption={countOf(assignments.data.length)}
          columns={columns}
          rows={assignments.data}
          rowKey={(a) => a.id}
        />
      )}
      {dialog?.kind === 'create' && <CreateCodesDialog onClose={close} />}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title="Code entfernen"
          confirmLabel="Entfernen"
          failure="Der Code konnte nicht entfernt werden."
          onConfirm={async () => {
            await api.removeCode(dialog.assignment);
            assignments.reload();
          }}
          onClose={close}
        >
          <p>
            Der Code <strong>{dialog.assignment.code}</strong> von {dialog.assignment.userName} wird gelöscht:{' '}
            {dialog.assignment.userName} verliert die Funktion {dialog.assignment.feature}, und der Code kann nicht
            wieder eingelöst werden.
          </p>
        </ConfirmDialog>
      )}
    </TableSection>
  );
}
