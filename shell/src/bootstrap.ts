import { exposeSharedInstances, session } from '@lakecams/session';
import { useState } from 'react';
import { addErrorHandler, registerApplication, start } from 'single-spa';
import { chromeLifecycles } from './chrome/chrome-app.tsx';
import { followNavigation } from './navigation.ts';
import { fetchRemoteManifestUrls, type RemoteManifestUrls, registerRemoteApplications } from './remote-apps.ts';
import { startSessionBeforeApps } from './session-start.ts';
import './styles/base.css';
import './styles/chrome.css';

async function readRemoteManifestUrls(): Promise<RemoteManifestUrls> {
  try {
    return await fetchRemoteManifestUrls();
  } catch (error) {
    // Registered anyway: each remote's route then shows the failure message.
    console.error('Could not read the remote manifests', error);
    return {};
  }
}

async function startShell(): Promise<void> {
  exposeSharedInstances('shell', useState);
  addErrorHandler((error) => console.error(`single-spa: ${error.appOrParcelName} failed`, error));
  followNavigation();

  // The chrome shows while the session starts and /remotes.json is on its way.
  registerApplication({ name: 'chrome', app: chromeLifecycles(), activeWhen: () => true });
  start();

  const [urls] = await Promise.all([readRemoteManifestUrls(), startSessionBeforeApps(session)]);
  registerRemoteApplications(urls);
}

await startShell();
