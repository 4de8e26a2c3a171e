import type { RefererUser } from '@lakecams/contracts';
import { type Session, SessionContext } from '@lakecams/session';
import { createTestSession, type FakeRoute, testUser } from '@lakecams/session/testing';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

// jsdom has <dialog> but neither showModal nor close.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}

// Nor object URLs.
URL.createObjectURL ??= (blob: Blob) => `blob:test/${blob.size}-${Math.random()}`;
URL.revokeObjectURL ??= () => {};

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

/** A signed-in session (Admin unless told otherwise) over fake API routes. */
export async function adminSession(routes: Record<string, FakeRoute>, roles = ['Admin'], referers: RefererUser[] = []) {
  return createTestSession({ user: testUser(), roles, referers, routes });
}

/** Renders a page at `path` inside the session; other paths show where the page sent the user. */
export function renderPage(session: Session, path: string, page: ReactNode) {
  return render(
    <SessionContext.Provider value={session}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path.split('?')[0]} element={page} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </SessionContext.Provider>,
  );
}

/** The query of the last request to `path`, as an object. */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://test.invalid').searchParams);
}

export const textResponse = (text: string, status = 200) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain' } });
