import type { UserSummary } from '@lakecams/contracts';
import { useSession, useSessionClient } from '@lakecams/session';
import { FormActions, FormCard, PageFrame } from '@lakecams/ui-kit';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ForgotPasswordForm } from '../login/forgot-password-form.tsx';
import { LoginForm } from '../login/login-form.tsx';
import { DEFAULT_RETURN_URL, safeReturnUrl } from '../navigation/return-url.ts';

/**
 * Login and forgot-password side by side; after login on to returnUrl, else home (docs/product.md §5.1).
 * A user who is signed in already sees who, with Abmelden and the way on instead.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const returnUrl = safeReturnUrl(query.get('returnUrl'));
  const [signingIn, setSigningIn] = useState(false);
  const { user, applicationUser } = useSession();
  return (
    <PageFrame title="Anmelden">
      {user && !signingIn ? (
        <div className="account-single">
          <SignedIn user={user} actingAs={applicationUser} returnUrl={returnUrl} />
        </div>
      ) : (
        <div className="account-columns">
          <LoginForm onBusy={setSigningIn} onSignedIn={() => navigate(returnUrl, { replace: true })} />
          <ForgotPasswordForm />
        </div>
      )}
    </PageFrame>
  );
}

const nameOf = (user: UserSummary) =>
  `${`${user.firstName} ${user.lastName}`.trim() || user.userName} (${user.userName})`;

function SignedIn({
  user,
  actingAs,
  returnUrl,
}: {
  user: UserSummary;
  actingAs: UserSummary | null;
  returnUrl: string;
}) {
  const session = useSessionClient();
  const acting = actingAs && actingAs.id !== user.id ? ` und handeln als ${nameOf(actingAs)}` : '';
  return (
    <FormCard title="Sie sind angemeldet">
      <p>
        Sie sind angemeldet als {nameOf(user)}
        {acting}.
      </p>
      <p>Um sich mit einem anderen Konto anzumelden, melden Sie sich zuerst ab.</p>
      <FormActions>
        <Link className="button-link" to={returnUrl}>
          {returnUrl === DEFAULT_RETURN_URL ? 'Weiter zur Startseite' : 'Weiter zur angefragten Seite'}
        </Link>
        <button type="button" className="button--secondary" onClick={() => void session.logout()}>
          Abmelden
        </button>
      </FormActions>
    </FormCard>
  );
}
