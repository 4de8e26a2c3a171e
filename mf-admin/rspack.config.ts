import { createAppConfig, PrecompressPlugin, REMOTE_APP_MODULE } from '@lakecams/mf-config';
import type { Configuration } from '@rspack/core';
import path from 'node:path';

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
 * (`/api/Jobs/dashboard`) loads `job-dashboard/job-dashboard.js` from beside this remote's manifest. No shell
 * hosts it, so it is no federated module: it brings its own React.
 */
const jobDashboard: Configuration = {
  name: 'job-dashboard',
  // After the remote, whose build empties the output folder first.
  dependencies: ['mf_admin'],
  mode: remote.mode,
  context: remote.context,
  target: remote.target,
  resolve: remote.resolve,
  module: remote.module,
  devtool: remote.devtool,
  performance: remote.performance,
  entry: { 'job-dashboard': './src/jobs/frame-entry.ts' },
  output: {
    path: path.join(remote.output?.path as string, 'job-dashboard'),
    publicPath: 'auto',
    clean: true,
    uniqueName: 'mf_admin_job_dashboard',
    // The name the frame document asks for, revalidated on every load; what it loads is content-hashed.
    filename: '[name].js',
    chunkFilename: '[name].[contenthash:8].js',
    cssChunkFilename: '[name].[contenthash:8].css',
  },
  plugins: [new PrecompressPlugin()],
};

// The dev server (MF_DEV=1) watches the remote alone; the frame's page comes with a full build.
export default process.env.MF_DEV === '1' ? remote : [remote, jobDashboard];
