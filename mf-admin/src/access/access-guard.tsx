import { type AuthState, useSession } from '@lakecams/session';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

interface AccessGuardProps {
  /** Whether the acting user may use the page. */
  allows: (state: AuthState) => boolean;
  /** Shown to a signed-in user the page is not for. */
  deniedText: string;
  children: ReactNode;
}

/** Visitors go to the login and come back; signed-in users the page is not for are told so. */
export function AccessGuard({ allows, deniedText, children }: AccessGuardProps) {
  const state = useSession();
  const { pathname } = useLocation();
  if (!state.user) return <Navigate to={`/login?returnUrl=${encodeURIComponent(pathname)}`} replace />;
  if (!allows(state)) return <p>{deniedText}</p>;
  return children;
}

export const isAdmin = (state: AuthState) => state.isAdmin;
export const ADMIN_ONLY = 'Diese Seite ist Administratoren vorbehalten.';
