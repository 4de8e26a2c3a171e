import { useSessionClient } from '@lakecams/session';
import { useMemo } from 'react';
import { type AdminApi, adminApi } from './admin-api.ts';

export function useAdminApi(): AdminApi {
  const { api } = useSessionClient();
  return useMemo(() => adminApi(api), [api]);
}
