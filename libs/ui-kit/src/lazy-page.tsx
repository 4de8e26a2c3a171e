import { matchPageRoute, type PageRoute } from '@lakecams/contracts';
import { type ComponentType, createElement, type FunctionComponent, lazy } from 'react';

/**
 * A page whose code is fetched when it is first shown, or beforehand by `preload()`; `chunk` is the name of its
 * chunk (`webpackChunkName`), whose stylesheet a page rendered on the server links.
 */
export type LazyPage = FunctionComponent & { preload(): Promise<void>; chunk?: string };

/**
 * A lazy page that renders at once once its code is loaded: the server loads it before rendering, and the browser
 * before hydrating it, so both render the page itself where a plain `lazy()` would suspend.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
  chunk?: string,
): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module[name];
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType };
  });
  const Page = () => createElement(loaded ?? Lazy);
  Page.displayName = `LazyPage(${name})`;
  return Object.assign(Page, { preload, ...(chunk ? { chunk } : {}) });
}

/** The pages a remote renders on the server, by route (a lazy one is loaded before it is rendered or hydrated). */
export type ServerPages = Partial<Record<PageRoute, ComponentType & { preload?(): Promise<void>; chunk?: string }>>;

/** Loads the code of the server-rendered page at `pathname`, if it has to be loaded. */
export async function preloadServerPage(pages: ServerPages, pathname: string): Promise<void> {
  const route = matchPageRoute(pathname)?.route;
  if (route !== undefined) await pages[route]?.preload?.();
}
