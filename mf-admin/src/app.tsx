import { remoteLifecycles } from '@lakecams/ui-kit';
import { AdminApp } from './admin-app.tsx';

export const { bootstrap, mount, unmount } = remoteLifecycles('mf_admin', AdminApp);
