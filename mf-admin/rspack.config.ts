import { createAppConfig, createPageConfig, REMOTE_APP_MODULE } from '@lakecams/mf-config';
import type { Configuration } from '@rspack/core';

const remote: Configuration = {
  ...createAppConfig({
    name: 'mf_admin',
    appDir: import.meta.dirname,
    exposes: { [REMOTE_APP_MODULE]: './src/app.tsx' },
  }),
  name: 'mf_admin',
};

/**
 * The job dashboard as a page of its own, for the frame of the `jobs` page: svc-imaging's frame document
 * (`/api/Jobs/dashboard`) loads `job-dashboard/job-dashboard.js` from beside this remote's manifest.
 */
const jobDashboard = createPageConfig({
  beside: remote,
  name: 'job-dashboard',
  entry: { 'job-dashboard': './src/jobs/frame-entry.ts' },
  folder: 'job-dashboard',
});

export default [remote, jobDashboard];
