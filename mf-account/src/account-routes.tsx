import type { ServerPages } from '@lakecams/ui-kit';
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

/** The mf_account routes of REMOTES (libs/contracts); the shell mounts this app only on them. */
export function AccountRoutes() {
  return (
    <Routes>
      <Route path="login" element={<LoginPage />} />
      <Route path="register" element={<RegisterPage />} />
      <Route path="confirmRegistration" element={<ConfirmRegistrationPage />} />
      <Route path="resetPassword" element={<ResetPasswordPage />} />
      <Route path="user" element={<ProfilePage />} />
      <Route path="contact" element={<ContactPage />} />
      {/* Other paths belong to other apps; single-spa unmounts this one right after. */}
      <Route path="*" element={null} />
    </Routes>
  );
}
