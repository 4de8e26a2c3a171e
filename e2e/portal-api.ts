import { type User, XSRF_COOKIE } from '@lakecams/contracts';
import { antiForgeryFrom, antiForgeryHeaders } from '@lakecams/service-kit/testing';

/** The anti-forgery cookies a new browser gets, and the token echoed in the header: what mutating calls send. */
export async function antiForgeryOf(baseUrl: string): Promise<Record<string, string>> {
  const first = await fetch(`${baseUrl}/api/News/News/news`);
  await first.body?.cancel();
  const pair = antiForgeryFrom(first.headers.getSetCookie());
  if (!pair) throw new Error(`The gateway set no ${XSRF_COOKIE} cookie`);
  return antiForgeryHeaders(pair);
}

/** Calls the portal's API from the test process the way the page does: anti-forgery cookie echoed in the header. */
export async function signedInApi(baseUrl: string, credentials: { username: string; password: string }) {
  const mutating = await antiForgeryOf(baseUrl);

  const login = await fetch(`${baseUrl}/api/Authenticate/Authenticate`, {
    method: 'POST',
    headers: { ...mutating, 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!login.ok) throw new Error(`Login as ${credentials.username} answered ${login.status}: ${await login.text()}`);
  const user = (await login.json()) as User;
  return {
    user,
    async get<T>(path: string): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${user.jwtToken}` } });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    },
    async post<T>(path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          ...mutating,
          authorization: `Bearer ${user.jwtToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}
