import { REMOTES } from '@lakecams/contracts';

const ADMIN_REMOTE = REMOTES.find((remote) => remote.folder === 'mf-admin')?.name ?? 'mf_admin';

/** The dashboard page's script, beside mf-admin's mf-manifest.json (built by mf-admin/rspack.config.ts). */
export const DASHBOARD_SCRIPT = 'job-dashboard/job-dashboard.js';

/** The frame's one script, a file of its own: the portal's Content-Security-Policy runs no inline script. */
export const DASHBOARD_FRAME_SCRIPT_PATH = '/api/Jobs/dashboard-frame.js';

/**
 * Loads the dashboard page: mf-admin renders it into the frame. Where that remote's current build lives (its
 * folder, or a release of it) is what `/remotes.json` says, as for the shell.
 */
export const DASHBOARD_FRAME_SCRIPT = `const failed = () => {
  document.getElementById('job-dashboard').textContent = 'Die Übersicht konnte nicht geladen werden. Bitte laden Sie die Seite neu.';
};
try {
  const remotes = await (await fetch('/remotes.json')).json();
  const script = document.createElement('script');
  script.src = new URL(${JSON.stringify(DASHBOARD_SCRIPT)}, new URL(remotes[${JSON.stringify(ADMIN_REMOTE)}], location.href)).href;
  script.onerror = failed;
  document.head.append(script);
} catch {
  failed();
}
`;

/** The document of the dashboard's frame. */
export const DASHBOARD_FRAME = `<!doctype html>
<html lang="de-CH">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Aufnahme-Jobs</title>
<script type="module" src="${DASHBOARD_FRAME_SCRIPT_PATH}"></script>
</head>
<body>
<div id="job-dashboard"></div>
</body>
</html>
`;
