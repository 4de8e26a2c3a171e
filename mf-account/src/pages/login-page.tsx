import { PageFrame } from '@lakecams/ui-kit';
import { useNavigate, useSearchParams } from 'react-router';
import { ForgotPasswordForm } from '../login/forgot-password-form.tsx';
import { LoginForm } from '../login/login-form.tsx';
import { safeReturnUrl } from '../navigation/return-url.ts';

/** Login and forgot-password side by side; after login on to returnUrl, else home (docs/product.md §5.1). */
export function LoginPage() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const returnUrl = safeReturnUrl(query.get('returnUrl'));
  return (
    <PageFrame title="Anmelden">
      <div className="account-columns">
        <LoginForm onSignedIn={() => navigate(returnUrl, { replace: true })} />
        <ForgotPasswordForm />
      </div>
    </PageFrame>
  );
}
