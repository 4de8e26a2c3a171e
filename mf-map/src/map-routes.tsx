import { Route, Routes } from 'react-router';
import { CameraPage } from './pages/camera-page.tsx';
import { HomePage } from './pages/home-page.tsx';
import { PrivacyPage } from './pages/privacy-page.tsx';
import { ReferersListPage } from './pages/referers-list-page.tsx';
import { WebcamsPage } from './pages/webcams-page.tsx';

/** The mf_map routes of REMOTES (libs/contracts); the shell mounts this app only on them. */
export function MapRoutes() {
  return (
    <Routes>
      <Route index element={<HomePage />} />
      <Route path="webcam/:name" element={<CameraPage />} />
      <Route path="webcams" element={<WebcamsPage />} />
      <Route path="referes-list" element={<ReferersListPage />} />
      <Route path="datenschutz" element={<PrivacyPage />} />
    </Routes>
  );
}
