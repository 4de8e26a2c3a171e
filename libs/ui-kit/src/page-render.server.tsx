import {
  matchPageRoute,
  type PageData,
  type RemoteName,
  type ServerChunks,
  type ServerRender,
} from '@lakecams/contracts';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { ServerPages } from './lazy-page.tsx';
import { ServerPageDataContext } from './use-page-data.ts';

/**
 * Server builds only (libs/mf-config createServerConfigs; react-router is the whole package there, so this file may
 * use what the browser's shared react-router leaves out).
 */
export interface ServerRenderOptions {
  remote: RemoteName;
  /** The remote's root below its router: what the browser renders inside `<BrowserRouter>`. */
  content: ComponentType;
  /** The pages rendered on the server; every other route answers null and stays rendered in the browser. */
  pages: ServerPages;
}

/**
 * The `render` of a remote's server build (contracts SERVER_RENDER_FILE): the remote's root as the browser's first
 * render shows it (anonymous, see @lakecams/session useSession), under a router fixed at `url`. Lazy pages are
 * loaded before it answers, so nothing suspends.
 */
export async function createServerRender(options: ServerRenderOptions): Promise<ServerRender> {
  await Promise.all(Object.values(options.pages).map((page) => page?.preload?.()));
  const { content: Content, pages, remote } = options;
  return (url: string, data: PageData = {}) => {
    const { pathname } = new URL(url, 'http://server.invalid');
    const match = matchPageRoute(pathname);
    if (match?.remote !== remote || !pages[match.route]) return null;
    return renderToString(
      <ServerPageDataContext value={data}>
        <StaticRouter location={url}>
          <Content />
        </StaticRouter>
      </ServerPageDataContext>,
    );
  };
}

/**
 * The server build's `chunks` (contracts ServerChunks): the chunk of the lazy page at `url`, whose stylesheet the
 * gateway links beside the remote's own so the page is styled at its first paint.
 */
export function createServerChunks(options: Pick<ServerRenderOptions, 'remote' | 'pages'>): ServerChunks {
  return (url: string) => {
    const { pathname } = new URL(url, 'http://server.invalid');
    const match = matchPageRoute(pathname);
    const chunk = match?.remote === options.remote ? options.pages[match.route]?.chunk : undefined;
    return chunk ? [chunk] : [];
  };
}
