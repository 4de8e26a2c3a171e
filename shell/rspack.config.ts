import { SITE_DESCRIPTION, SITE_NAME, THEME_COLOR } from '@lakecams/contracts';
import { createAppConfig } from '@lakecams/mf-config';
import { rspack } from '@rspack/core';

// The root config: no static remotes; their manifests come from /remotes.json at run time.
export default createAppConfig({
  name: 'shell',
  appDir: import.meta.dirname,
  entry: { main: './src/index.ts' },
  plugins: [
    new rspack.HtmlRspackPlugin({
      template: './src/index.ejs',
      templateParameters: { siteName: SITE_NAME, siteDescription: SITE_DESCRIPTION, themeColor: THEME_COLOR },
      // Absolute script URLs: index.html is also the answer for deep links such as /webcam/x.
      publicPath: '/',
    }),
    // Icons and the app manifest, served from the site's root.
    new rspack.CopyRspackPlugin({ patterns: [{ from: 'public' }] }),
  ],
});
