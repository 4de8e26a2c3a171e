import '@lakecams/ui-kit/page-defaults.css';
import { createApiClient, EMPTY_AUTH_STATE } from '@lakecams/session';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { JobDashboard } from './job-dashboard.tsx';
import './frame.css';
import '../admin.css';

/** Where svc-imaging's frame document expects the page (`/api/Jobs/dashboard`). */
export const FRAME_ROOT_ID = 'job-dashboard';

/**
 * The dashboard alone in its frame. The frame's document carries the access cookie, not a bearer token: its
 * calls go without one, and the server lets only an administrator's cookie through.
 */
export function mountInFrame(): void {
  let root = document.getElementById(FRAME_ROOT_ID);
  if (!root) {
    root = document.createElement('div');
    root.id = FRAME_ROOT_ID;
    document.body.append(root);
  }
  root.replaceChildren();
  const api = createApiClient({ getState: () => EMPTY_AUTH_STATE });
  createRoot(root).render(
    <StrictMode>
      <main>
        <JobDashboard api={api} />
      </main>
    </StrictMode>,
  );
}
