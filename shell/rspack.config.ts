import { SITE_DESCRIPTION, SITE_NAME, THEME_COLOR } from '@lakecams/contracts';
import { createAppConfig, createServerConfigs } from '@lakecams/mf-config';
import { rspack } from '@rspack/core';
import { readFileSync } from 'node:fs';

// The page-wide tokens, element defaults and the chrome's styles go inline into index.html: the page (the chrome and
// pages the gateway renders on the server, a camera page's first view) is laid out as the browser will show it
// before any script or stylesheet arrives.
const baseCss = [
  import.meta.resolve('@lakecams/ui-kit/page-defaults.css'),
  import.meta.resolve('./src/styles/base.css'),
  import.meta.resolve('./src/styles/chrome.css'),
]
  .map((file) => readFileSync(new URL(file), 'utf8'))
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s+/g, ' ')
  .replace(/\s*([{};:,>])\s*/g, '$1')
  .trim();

// The root config: no static remotes; their manifests come from /remotes.json at run time.
const shell = createAppConfig({
  name: 'shell',
  appDir: import.meta.dirname,
  entry: { main: './src/index.ts' },
  plugins: [
    new rspack.HtmlRspackPlugin({
      template: './src/index.ejs',
      templateParameters: { siteName: SITE_NAME, siteDescription: SITE_DESCRIPTION, themeColor: THEME_COLOR, baseCss },
      // Absolute script URLs: index.html is also the answer for deep links such as /webcam/x.
      publicPath: '/',
    }),
    // Icons and the app manifest, served from the site's root.
    new rspack.CopyRspackPlugin({ patterns: [{ from: 'public' }] }),
  ],
});

// The browser build and, in `server/`, the chrome's server render the gateway puts into every page.
export default [shell, ...createServerConfigs({ beside: shell, entry: './src/server.tsx' })];
