import type { CodeAssignment } from '@lakecams/contracts';
import { useSession, useSessionClient } from '@lakecams/session';
import { PageFrame } from '@lakecams/ui-kit';
import { useCallback, useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { loginPathReturningTo } from '../navigation/return-url.ts';
import { type AssignmentsState, CodeAssignments } from '../profile/code-assignments.tsx';
import { CodeForm } from '../profile/code-form.tsx';
import { ProfileForm } from '../profile/profile-form.tsx';
import { useAccountApi } from '../api/use-account-api.ts';

/** The profile: reachable only when signed in; otherwise to login and back here (docs/product.md §5.5). */
export function ProfilePage() {
  const { user, applicationUser, roles } = useSession();
  if (!user || !applicationUser) return <Navigate to={loginPathReturningTo('/user')} replace />;
  return (
    <PageFrame title="Mein Profil">
      <p className="profile-identity">
        Benutzername <strong>{applicationUser.userName}</strong> · {applicationUser.email}
      </p>
      {roles.length > 0 && (
        <ul className="role-list" aria-label="Rollen">
          {roles.map((role) => (
            <li key={role}>{role}</li>
          ))}
        </ul>
      )}
      <div className="account-columns">
        {/* A new acting user (impersonation) starts a fresh form. */}
        <ProfileForm key={applicationUser.id} user={applicationUser} />
        <CodeSection key={`codes-${applicationUser.id}`} userId={applicationUser.id} />
      </div>
    </PageFrame>
  );
}

/** The acting user's redeemed codes; an admin manages everybody's on /edit/codes. */
function CodeSection({ userId }: { userId: string }) {
  const api = useAccountApi();
  const session = useSessionClient();
  const { isAdmin } = useSession();
  const [assignments, setAssignments] = useState<AssignmentsState>({ status: 'loading' });

  const loadAssignments = useCallback(async () => {
    try {
      const list = await api.codeAssignments();
      setAssignments({ status: 'ready', list: list.filter((assignment) => assignment.userId === userId) });
    } catch (error) {
      console.error('Loading the code assignments failed', error);
      setAssignments({ status: 'failed' });
    }
  }, [api, userId]);

  useEffect(() => {
    void loadAssignments();
  }, [loadAssignments]);

  // A code grants or a removal takes away a role: the roles and the list change together, and the access token
  // is renewed, since pictures are delivered by the role it carries.
  const refreshAfterChange = useCallback(async () => {
    await Promise.all([loadAssignments(), session.refresh().then(() => session.reloadAccess())]);
  }, [loadAssignments, session]);

  async function remove(assignment: CodeAssignment) {
    try {
      await api.removeCodeAssignment(assignment.id);
    } catch (error) {
      console.error('Removing the code assignment failed', error);
    }
    await refreshAfterChange();
  }

  return (
    <CodeForm onRedeemed={refreshAfterChange}>
      <CodeAssignments assignments={assignments} onRemove={remove} />
      {isAdmin && (
        <p className="muted">
          Die Codes aller Benutzer: <Link to="/edit/codes">Codes verwalten</Link>
        </p>
      )}
    </CodeForm>
  );
}
