import { createContext, useContext, useSyncExternalStore } from 'react';
import { type AuthState, EMPTY_AUTH_STATE } from './auth-state.ts';
import type { Session } from './session.ts';

/** The page's session by default; tests and previews provide another one. */
export const SessionContext = createContext<Session | null>(null);

let pageSession: Session | null = null;

/** Called once by index.ts, so this module does not import the singleton it would create a cycle with. */
export function setPageSession(session: Session): void {
  pageSession = session;
}

/** The session object: transitions (login, logout, impersonate …) and the HTTP client. */
export function useSessionClient(): Session {
  const session = useContext(SessionContext) ?? pageSession;
  if (!session) throw new Error('No session: import @lakecams/session before rendering');
  return session;
}

/** What a page rendered on the server assumed: nobody signed in (the gateway renders the same page for everyone). */
const anonymous = () => EMPTY_AUTH_STATE;

/**
 * The authentication state; the component renders again whenever it changes. A page hydrating the gateway's
 * rendering first renders as anonymous, as the server did, and shows the signed-in user in the render right after.
 */
export function useSession(): AuthState {
  const session = useSessionClient();
  return useSyncExternalStore(session.subscribe, session.getState, anonymous);
}
