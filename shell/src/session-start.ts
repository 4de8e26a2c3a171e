import type { Session } from '@lakecams/session';

/** A dead API must not keep the page blank: the remotes load after this long at the latest. */
export const SESSION_START_TIMEOUT_MS = 5_000;

/**
 * The token is refreshed before the apps load (docs/product.md §8.2). Resolves when the session has started,
 * failed, or taken longer than `timeoutMs`; it never rejects.
 */
export async function startSessionBeforeApps(session: Session, timeoutMs = SESSION_START_TIMEOUT_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`The session did not start within ${timeoutMs} ms; loading the page anyway`);
      resolve();
    }, timeoutMs);
  });
  const started = session.start().catch((error: unknown) => console.error('Starting the session failed', error));
  await Promise.race([started, timeout]);
  clearTimeout(timer);
}
