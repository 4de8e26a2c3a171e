import type { ChromeRender } from '@lakecams/contracts';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ChromeFooter, ChromeHeader } from './chrome/chrome.tsx';
import { ChromeServerContext } from './chrome/chrome-server.ts';

/**
 * The shell's server build (libs/mf-config createServerConfigs): the chrome as its first render in the browser shows
 * it (nobody signed in), which chrome-app.tsx then hydrates.
 */
export const renderChrome: ChromeRender = (path, data, visitor) => {
  const state = { path, data, cookieNoticeAccepted: visitor.cookieNoticeAccepted };
  const html = (element: React.ReactNode) =>
    renderToString(
      <ChromeServerContext value={state}>
        <StrictMode>{element}</StrictMode>
      </ChromeServerContext>,
    );
  return { header: html(<ChromeHeader />), footer: html(<ChromeFooter />) };
};
