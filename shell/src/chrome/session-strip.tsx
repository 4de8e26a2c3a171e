import type { UserSummary } from '@lakecams/contracts';
import { impersonatedUserId, useSession, useSessionClient } from '@lakecams/session';

function nameOf(user: UserSummary): string {
  const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  return name ? `${name} (${user.userName})` : user.userName;
}

/** Who is signed in, and, while an admin impersonates, who is acting, with the way back (docs/product.md §3.4). */
export function SessionStrip() {
  const session = useSessionClient();
  const state = useSession();
  const { user, applicationUser } = state;
  if (!user) return null;
  if (!applicationUser || impersonatedUserId(state) === null) {
    return (
      <div className="session-strip">
        <p>
          Angemeldet als <strong>{user.userName}</strong>
        </p>
      </div>
    );
  }
  return (
    <div className="session-strip session-strip--impersonating" role="status">
      <p>
        Sie handeln als <strong>{nameOf(applicationUser)}</strong> · angemeldet als {user.userName}
      </p>
      <button type="button" onClick={() => void session.stopImpersonating()}>
        Zurück zu meinem Benutzer
      </button>
    </div>
  );
}
