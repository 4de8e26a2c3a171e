import { BrowserRouter } from 'react-router';
import { AdminRoutes } from './admin-routes.tsx';
import './admin.css';

export function AdminApp() {
  return (
    <BrowserRouter>
      <AdminRoutes />
    </BrowserRouter>
  );
}
