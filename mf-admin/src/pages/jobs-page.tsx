import { useSession } from '@lakecams/session';
import { PageFrame } from '@lakecams/ui-kit';
import { Navigate } from 'react-router';
import { JOB_DASHBOARD_PATH } from '../api/jobs-api.ts';

/** The background-job dashboard in a full-size frame (route `jobs`, docs/product.md §6.6). */
export function JobsPage() {
  const { user, isAdmin } = useSession();
  if (!user) return <Navigate to="/login?returnUrl=%2Fjobs" replace />;
  return (
    <PageFrame title="Jobs">
      {isAdmin ? (
        <iframe className="job-dashboard-frame" src={JOB_DASHBOARD_PATH} title="Aufnahme-Jobs" />
      ) : (
        <p>Diese Seite ist Administratoren vorbehalten.</p>
      )}
    </PageFrame>
  );
}
