import { createAppConfig, REMOTE_APP_MODULE } from '@lakecams/mf-config';

export default createAppConfig({
  name: 'mf_map',
  appDir: import.meta.dirname,
  exposes: { [REMOTE_APP_MODULE]: './src/app.tsx' },
  // Lets a test build a second, visibly different mf-map and swap it in through /remotes.json.
  define: { __MF_MAP_VARIANT_LABEL__: JSON.stringify(process.env.MF_MAP_VARIANT_LABEL ?? '') },
});
