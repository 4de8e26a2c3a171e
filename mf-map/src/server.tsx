import { createServerChunks, createServerRender } from '@lakecams/ui-kit/page-render.server';
import { MapContent } from './map-app.tsx';
import { SERVER_PAGES } from './map-routes.tsx';

/** The server build's `render` (libs/mf-config createServerConfigs), which the gateway calls for mf_map's pages. */
export const render = await createServerRender({ remote: 'mf_map', content: MapContent, pages: SERVER_PAGES });

/** The lazy page's chunk, whose stylesheet the gateway links. */
export const chunks = createServerChunks({ remote: 'mf_map', pages: SERVER_PAGES });
