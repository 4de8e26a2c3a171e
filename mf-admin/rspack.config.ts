import { createAppConfig, REMOTE_APP_MODULE } from '@lakecams/mf-config';

export default createAppConfig({
  name: 'mf_admin',
  appDir: import.meta.dirname,
  exposes: { [REMOTE_APP_MODULE]: './src/app.tsx' },
});
