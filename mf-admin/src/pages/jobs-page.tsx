import { useSession } from '@lakecams/session';
import { PageFrame } from '@lakecams/ui-kit';
import { Navigate } from 'react-router';

/**
 * The frame's document, served by svc-imaging to an administrator's access cookie only (a frame sends no
 * bearer header); it renders this remote's dashboard page (src/jobs/frame.tsx) and nothing else.
 */
export const JOB_DASHBOARD_URL = '/api/Jobs/dashboard';

/** The background-job dashboard in a full-size frame (route `jobs`, docs/product.md §6.6). */
export function JobsPage() {
  const { user, isAdmin } = useSession();
  if (!user) return <Navigate to="/login?returnUrl=%2Fjobs" replace />;
  return (
    <PageFrame title="Jobs">
      {isAdmin ? (
        <iframe className="job-dashboard-frame" src={JOB_DASHBOARD_URL} title="Aufnahme-Jobs" />
      ) : (
        <p>Diese Seite ist Administratoren vorbehalten.</p>
      )}
    </PageFrame>
  );
}
