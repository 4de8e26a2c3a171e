import { createAppConfig, createServerConfigs, REMOTE_APP_MODULE } from '@lakecams/mf-config';

const remote = createAppConfig({
  name: 'mf_account',
  appDir: import.meta.dirname,
  exposes: { [REMOTE_APP_MODULE]: './src/app.tsx' },
});

// The browser build and, in `server/`, the one the gateway renders the account pages with.
export default [remote, ...createServerConfigs({ beside: remote, entry: './src/server.tsx' })];
