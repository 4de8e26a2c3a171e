import { remoteLifecycles } from '@lakecams/ui-kit';
import { AccountApp } from './account-app.tsx';

export const { bootstrap, mount, unmount } = remoteLifecycles('mf_account', AccountApp);
