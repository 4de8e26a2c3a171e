import { Route, Routes } from 'react-router';
import { CameraAdministrationPage } from './pages/camera-administration-page.tsx';
import { CameraSetupPage } from './pages/camera-setup-page.tsx';
import { CodeAdministrationPage } from './pages/code-administration-page.tsx';
import { ImpersonatePage } from './pages/impersonate-page.tsx';
import { JobsPage } from './pages/jobs-page.tsx';
import { RefererUsersPage } from './pages/referer-users-page.tsx';

/** The mf_admin routes of REMOTES (libs/contracts); the shell mounts this app only on them. */
export function AdminRoutes() {
  return (
    <Routes>
      <Route path="jobs" element={<JobsPage />} />
      <Route path="edit/webcams" element={<CameraAdministrationPage />} />
      <Route path="edit/referers" element={<RefererUsersPage />} />
      <Route path="edit/referer/cameras" element={<CameraSetupPage />} />
      <Route path="edit/codes" element={<CodeAdministrationPage />} />
      <Route path="impersonate" element={<ImpersonatePage />} />
      {/* Other paths belong to other apps; single-spa unmounts this one right after. */}
      <Route path="*" element={null} />
    </Routes>
  );
}
