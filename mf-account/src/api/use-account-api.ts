import { useSessionClient } from '@lakecams/session';
import { useMemo } from 'react';
import { type AccountApi, accountApi } from './account-api.ts';

export function useAccountApi(): AccountApi {
  const { api } = useSessionClient();
  return useMemo(() => accountApi(api), [api]);
}
