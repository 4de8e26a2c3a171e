import { type RoutesOf, routesOf } from '@lakecams/contracts';
import type { ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { CameraAdministrationPage } from './pages/camera-administration-page.tsx';
import { CameraSetupPage } from './pages/camera-setup-page.tsx';
import { CodeAdministrationPage } from './pages/code-administration-page.tsx';
import { ImpersonatePage } from './pages/impersonate-page.tsx';
import { JobsPage } from './pages/jobs-page.tsx';
import { RefererUsersPage } from './pages/referer-users-page.tsx';

/** The page of each mf_admin route of PAGE_ROUTES (libs/contracts): the type asks for every route and no other. */
const PAGES: Readonly<Record<RoutesOf<'mf_admin'>, ComponentType>> = {
  jobs: JobsPage,
  'edit/webcams': CameraAdministrationPage,
  'edit/referers': RefererUsersPage,
  'edit/referer/cameras': CameraSetupPage,
  'edit/codes': CodeAdministrationPage,
  impersonate: ImpersonatePage,
};

const ROUTES = routesOf('mf_admin');

/** The mf_admin routes of PAGE_ROUTES (libs/contracts); the shell mounts this app only on them. */
export function AdminRoutes() {
  return (
    <Routes>
      {ROUTES.map((route) => {
        const Page = PAGES[route];
        return <Route key={route} path={route} element={<Page />} />;
      })}
      {/* Other paths belong to other apps; single-spa unmounts this one right after. */}
      <Route path="*" element={null} />
    </Routes>
  );
}
