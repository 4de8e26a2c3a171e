import { createServerRender } from '@lakecams/ui-kit/page-render.server';
import { AccountRoutes, SERVER_PAGES } from './account-routes.tsx';

/** The server build's `render` (libs/mf-config createServerConfigs), which the gateway calls for mf_account's pages. */
export const render = await createServerRender({ remote: 'mf_account', content: AccountRoutes, pages: SERVER_PAGES });
