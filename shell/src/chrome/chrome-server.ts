import type { PageData } from '@lakecams/contracts';
import { createContext, useContext } from 'react';

/** What the gateway tells the chrome's server render; null in the browser, which reads the page instead. */
export interface ChromeServerState {
  path: string;
  data: PageData;
  cookieNoticeAccepted: boolean;
}

export const ChromeServerContext = createContext<ChromeServerState | null>(null);

export const useChromeServerState = () => useContext(ChromeServerContext);
