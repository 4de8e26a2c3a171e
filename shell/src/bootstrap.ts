import { exposeSharedInstances, session } from '@lakecams/session';
import { useState } from 'react';
import { addErrorHandler, registerApplication, start } from 'single-spa';
import { chromeLifecycles } from './chrome/chrome-app.tsx';
import { dropFirstViewOnLeave } from './first-view.ts';
import { followNavigation } from './navigation.ts';
import { dropServerRenderingOnLeave, registerRemoteApplications } from './remote-apps.ts';
import { registerRemotesOnce } from './remote-manifests.ts';
import { startSessionBeforeApps } from './session-start.ts';

async function startShell(): Promise<void> {
  exposeSharedInstances('shell', useState);
  addErrorHandler((error) => console.error(`single-spa: ${error.appOrParcelName} failed`, error));
  followNavigation();
  dropFirstViewOnLeave();
  dropServerRenderingOnLeave();

  // The chrome shows while the session starts and the open page's remote is on its way (index.ts started it).
  registerApplication({ name: 'chrome', app: chromeLifecycles(), activeWhen: () => true });
  start();

  const [urls] = await Promise.all([registerRemotesOnce(), startSessionBeforeApps(session)]);
  registerRemoteApplications(urls);
}

await startShell();
