import { BrowserRouter } from 'react-router';
import { AccountRoutes } from './account-routes.tsx';
import './account.css';

export function AccountApp() {
  return (
    <BrowserRouter>
      <AccountRoutes />
    </BrowserRouter>
  );
}
