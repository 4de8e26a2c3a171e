import type { ApiClient } from './api-client.ts';
import { createSession, type Session } from './session.ts';
import { setPageSession } from './use-session.ts';

export {
  isUnexpired,
  MIN_REFRESH_DELAY_MS,
  REFRESH_BEFORE_EXPIRY_MS,
  refreshDelay,
  tokenExpiresAt,
} from './access-token.ts';
export {
  ApiError,
  type ApiClient,
  type ApiClientOptions,
  createApiClient,
  IMPERSONATE_HEADER,
  XSRF_PRIMING_PATH,
} from './api-client.ts';
export {
  type AuthState,
  EMPTY_AUTH_STATE,
  impersonatedUserId,
  type RefererOfUser,
} from './auth-state.ts';
export { FLASH_EVENT, type FlashMessage, leaveFlashMessage, takeFlashMessage } from './flash-message.ts';
export { exposeSharedInstances, instanceId, type SharedInstances } from './instance.ts';
export {
  AUTH_PATHS,
  createSession,
  REFRESH_LOCK_NAME,
  type Session,
  type SessionListener,
  type SessionOptions,
} from './session.ts';
export { STORED_ACTING_USER_KEY, STORED_USER_KEY, type UserStorage } from './stored-user.ts';
export { SessionContext, useSession, useSessionClient } from './use-session.ts';

/** The page's session: shared by the shell and every remote as a Module Federation singleton. */
export const session: Session = createSession();
setPageSession(session);

export const apiFetch: ApiClient['fetch'] = session.api.fetch;
export const apiJson: ApiClient['json'] = session.api.json;
export const apiBoolean: ApiClient['boolean'] = session.api.boolean;

/** Point `/api/...` calls at another root, e.g. a gateway on another origin. */
export function configureApi(settings: { apiRoot: string }): void {
  session.api.setApiRoot(settings.apiRoot);
}
