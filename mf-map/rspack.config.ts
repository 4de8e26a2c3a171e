import { createAppConfig, createServerConfigs, REMOTE_APP_MODULE } from '@lakecams/mf-config';

// Lets a test build a second, visibly different mf-map and swap it in through /remotes.json.
const define = { __MF_MAP_VARIANT_LABEL__: JSON.stringify(process.env.MF_MAP_VARIANT_LABEL ?? '') };

const remote = createAppConfig({
  name: 'mf_map',
  appDir: import.meta.dirname,
  exposes: { [REMOTE_APP_MODULE]: './src/app.tsx' },
  define,
});

// The browser build and, in `server/`, the one the gateway renders mf_map's pages with.
export default [remote, ...createServerConfigs({ beside: remote, entry: './src/server.tsx', define })];
