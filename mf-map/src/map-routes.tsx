import { type RoutesOf, routesOf } from '@lakecams/contracts';
import { lazyPage, type ServerPages } from '@lakecams/ui-kit';
import { type ComponentType, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { HomePage } from './pages/home-page.tsx';

const CameraPage = lazyPage(
  () => import(/* webpackChunkName: "camera-page" */ './pages/camera-page.tsx'),
  'CameraPage',
  'camera-page',
);
const WebcamsPage = lazyPage(
  () => import(/* webpackChunkName: "webcams-page" */ './pages/webcams-page.tsx'),
  'WebcamsPage',
  'webcams-page',
);
const ReferersListPage = lazyPage(
  () => import(/* webpackChunkName: "referers-list-page" */ './pages/referers-list-page.tsx'),
  'ReferersListPage',
  'referers-list-page',
);
const BestofPage = lazyPage(
  () => import(/* webpackChunkName: "bestof-page" */ './pages/bestof-page.tsx'),
  'BestofPage',
  'bestof-page',
);
const PrivacyPage = lazyPage(
  () => import(/* webpackChunkName: "privacy-page" */ './pages/privacy-page.tsx'),
  'PrivacyPage',
  'privacy-page',
);

/**
 * The pages the gateway renders on the server (docs/decisions.md, "Pages rendered on the server"); the others are
 * rendered in the browser only.
 */
export const SERVER_PAGES: ServerPages = {
  '': HomePage,
  webcams: WebcamsPage,
  bestof: BestofPage,
  datenschutz: PrivacyPage,
  'referes-list': ReferersListPage,
};

/** The page of each mf_map route of PAGE_ROUTES (libs/contracts): the type asks for every route and no other. */
const PAGES: Readonly<Record<RoutesOf<'mf_map'>, ComponentType>> = {
  '': HomePage,
  'webcam/:name': CameraPage,
  webcams: WebcamsPage,
  'referes-list': ReferersListPage,
  datenschutz: PrivacyPage,
  bestof: BestofPage,
};

const ROUTES = routesOf('mf_map');

/** The mf_map routes of PAGE_ROUTES (libs/contracts); the shell mounts this app only on them. */
export function MapRoutes() {
  return (
    <Suspense fallback={null}>
      <Routes>
        {ROUTES.map((route) => {
          const Page = PAGES[route];
          return <Route key={route} index={route === ''} path={route || undefined} element={<Page />} />;
        })}
      </Routes>
    </Suspense>
  );
}
