import { useSession } from '@lakecams/session';
import { PageFrame } from '@lakecams/ui-kit';
import { Navigate } from 'react-router';

/** Served by svc-imaging; the frame sends the access cookie, the dashboard checks the Admin role itself. */
export const JOB_DASHBOARD_URL = '/api/Jobs/dashboard';

/** The background-job dashboard in a full-size frame (route `jobs`). */
export function JobsPage() {
  const { user, isAdmin } = useSession();
  if (!user) return <Navigate to="/login?returnUrl=%2Fjobs" replace />;
  return (
    <PageFrame title="Jobs">
      {isAdmin ? (
        <iframe className="job-dashboard" src={JOB_DASHBOARD_URL} title="Aufnahme-Jobs" />
      ) : (
        <p>Diese Seite ist Administratoren vorbehalten.</p>
      )}
    </PageFrame>
  );
}
