import type { UserSummary } from '@lakecams/contracts';
import { type AuthState, impersonatedUserId, useSession, useSessionClient } from '@lakecams/session';
import { type Column, DataTable, PageFrame } from '@lakecams/ui-kit';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { useAdminApi } from '../api/use-admin-api.ts';

/** Not an admin and not impersonating (acting user = logged-in user, or nobody) → login. */
export function mayImpersonate(state: AuthState): boolean {
  return state.isAdmin || impersonatedUserId(state) !== null;
}

export function ImpersonatePage() {
  const state = useSession();
  if (!mayImpersonate(state)) return <Navigate to="/login" replace />;
  return (
    <PageFrame title="Benutzer vertreten">
      <ActingAs />
      <UserTable />
    </PageFrame>
  );
}

function displayName(user: UserSummary): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.userName;
}

/** Who is acting now, and the way back to the own user. */
function ActingAs() {
  const session = useSessionClient();
  const state = useSession();
  const { user, applicationUser } = state;
  if (!user || !applicationUser || impersonatedUserId(state) === null) {
    return <p className="impersonation-note">Sie handeln als Sie selbst ({user?.userName}).</p>;
  }
  return (
    <div className="impersonation-note impersonation-note--active" role="status">
      <p>
        Sie handeln als <strong>{displayName(applicationUser)}</strong> ({applicationUser.userName}), angemeldet als{' '}
        {user.userName}.
      </p>
      <button type="button" onClick={() => void session.stopImpersonating()}>
        Zurück zu meinem Benutzer
      </button>
    </div>
  );
}

type UsersState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; users: UserSummary[] };

function UserTable() {
  const session = useSessionClient();
  const api = useAdminApi();
  const { applicationUser } = useSession();
  const [users, setUsers] = useState<UsersState>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    api.allUsers().then(
      (list) => current && setUsers({ status: 'ready', users: list }),
      (error: unknown) => {
        console.error('Loading the users failed', error);
        if (current) setUsers({ status: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [api]);

  if (users.status === 'loading') return <p className="muted">Benutzer werden geladen …</p>;
  if (users.status === 'failed') {
    return (
      <p className="muted" role="alert">
        Die Benutzer konnten nicht geladen werden.
      </p>
    );
  }

  const columns: Column<UserSummary>[] = [
    { label: 'Vorname', cell: (u) => u.firstName },
    { label: 'Nachname', cell: (u) => u.lastName },
    { label: 'Benutzername', cell: (u) => u.userName },
    { label: 'Telefon', cell: (u) => u.phoneNumber },
    { label: 'E-Mail', cell: (u) => u.email },
    { label: 'Bestätigt', cell: (u) => (u.emailConfirmed ? 'Ja' : 'Nein') },
    {
      label: 'Aktion',
      actions: true,
      cell: (u) =>
        u.id === applicationUser?.id ? (
          <span className="muted">aktiv</span>
        ) : (
          <button
            type="button"
            aria-label={`${displayName(u)} (${u.userName}) vertreten`}
            onClick={() => void session.impersonate(u)}
          >
            Vertreten
          </button>
        ),
    },
  ];
  return (
    <DataTable
      caption={`${users.users.length} Benutzer`}
      columns={columns}
      rows={users.users}
      rowKey={(u) => u.id}
      highlighted={(u) => u.id === applicationUser?.id}
    />
  );
}
