import { type RoutesOf, routesOf } from '@lakecams/contracts';
import type { ServerPages } from '@lakecams/ui-kit';
import type { ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { ConfirmRegistrationPage } from './pages/confirm-registration-page.tsx';
import { ContactPage } from './pages/contact-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { ProfilePage } from './pages/profile-page.tsx';
import { RegisterPage } from './pages/register-page.tsx';
import { ResetPasswordPage } from './pages/reset-password-page.tsx';

/**
 * The pages the gateway renders on the server (docs/decisions.md, "Pages rendered on the server"); the others are
 * rendered in the browser only.
 */
export const SERVER_PAGES: ServerPages = { login: LoginPage, register: RegisterPage, contact: ContactPage };

/** The page of each mf_account route of PAGE_ROUTES (libs/contracts): the type asks for every route and no other. */
const PAGES: Readonly<Record<RoutesOf<'mf_account'>, ComponentType>> = {
  login: LoginPage,
  register: RegisterPage,
  confirmRegistration: ConfirmRegistrationPage,
  resetPassword: ResetPasswordPage,
  user: ProfilePage,
  contact: ContactPage,
};

const ROUTES = routesOf('mf_account');

/** The mf_account routes of PAGE_ROUTES (libs/contracts); the shell mounts this app only on them. */
export function AccountRoutes() {
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
