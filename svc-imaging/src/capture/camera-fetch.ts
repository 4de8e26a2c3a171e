import { type LocalDateParts, localDateParts } from '@lakecams/contracts';
import {
  answerChallenge,
  type CameraLogin,
  chooseChallenge,
  type LoginAnswer,
  parseChallenges,
  splitUrlLogin,
  withoutUrlLogins,
} from './camera-login.ts';

/** Fetching a camera's current picture: http(s) only, bounded in time and size, retried with backoff, with its login. */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  retries: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 15_000, maxBytes: 25 * 1024 * 1024, retries: 2 };

export class CameraFetchError extends Error {
  /** Trying again would not help: not retried. */
  readonly final: boolean;
  constructor(message: string, options: { final?: boolean } = {}) {
    super(message);
    this.final = options.final ?? false;
  }
}

const PLACEHOLDER = /\{(yyyy|MM|dd|HH|mm)\}/g;

/** `{yyyy}`, `{MM}`, `{dd}`, `{HH}`, `{mm}` in a camera pattern become the tick's local date and time. */
export function expandPattern(pattern: string, at: Date, timeZone = 'Europe/Zurich'): string {
  const values = localDateParts(at, timeZone);
  return pattern.replace(PLACEHOLDER, (_m, key: keyof LocalDateParts) => values[key]);
}

async function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes)
    throw new CameraFetchError(`Image too large (${declared} bytes, limit ${maxBytes})`, { final: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new CameraFetchError(`Image too large (over ${maxBytes} bytes)`, { final: true });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** How many redirects a camera may send before its picture. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function isWebUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** fetch says only "fetch failed": the cause's code tells an operator what to fix. */
const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (name lookup failed)',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

function networkReason(error: Error): string {
  const code = (error as Error & { cause?: { code?: string } }).cause?.code;
  return code ? `${NETWORK_REASONS[code] ?? 'network error'} (${code})` : error.message;
}

async function request(url: URL, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number) {
  try {
    // Redirects by hand: the login must not follow one to another origin.
    return await fetch(url, { signal, redirect: 'manual', headers });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : networkReason(error as Error);
    throw new CameraFetchError(`Camera unreachable: ${withoutUrlLogins(reason)}`);
  }
}

/**
 * The camera's answer with its picture, after its redirects and its login: the first request goes without
 * credentials, and a 401 is answered with the scheme it names (decisions.md, "Camera logins").
 */
async function exchange(url: URL, login: CameraLogin | null, limits: FetchLimits): Promise<Response> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let target = url;
  let answer: LoginAnswer | null = null;
  let staleAnswered = false;
  for (let redirects = 0; ; ) {
    const ownOrigin = target.origin === url.origin;
    const authorization = answer && ownOrigin ? answer.authorization(`${target.pathname}${target.search}`) : null;
    const response = await request(target, authorization ? { authorization } : {}, signal, limits.timeoutMs);
    const location = response.headers.get('location');
    if (REDIRECT_STATUSES.has(response.status) && location !== null) {
      await response.body?.cancel();
      if (++redirects > MAX_REDIRECTS) throw new CameraFetchError('Camera redirected too often', { final: true });
      try {
        target = splitUrlLogin(new URL(location, target)).url;
      } catch {
        throw new CameraFetchError('Camera redirected to an address that is not a valid URL', { final: true });
      }
      if (!isWebUrl(target))
        throw new CameraFetchError('Camera redirected to an address that is not http(s)', { final: true });
      continue;
    }
    if (response.status !== 401) return response;
    await response.body?.cancel();
    const challenges = parseChallenges(response.headers.get('www-authenticate') ?? '');
    const asked = challenges.map((c) => c.scheme).join(', ') || 'no scheme named';
    if (!ownOrigin)
      throw new CameraFetchError(`Camera redirected to another site that asks for a login (${asked})`, { final: true });
    if (!login) throw new CameraFetchError(`Camera asks for a login (${asked}) and none is set`, { final: true });
    const challenge = chooseChallenge(challenges);
    if (!challenge)
      throw new CameraFetchError(`Camera asks for a login this portal cannot give (${asked})`, { final: true });
    if (authorization) {
      // A Digest nonce that ran out is answered once more with the new one; otherwise the login is wrong.
      const stale = challenge.params.stale?.toLowerCase() === 'true' && answer?.scheme === 'Digest';
      if (!stale || staleAnswered)
        throw new CameraFetchError(`Camera refused the login (${answer?.scheme})`, { final: true });
      staleAnswered = true;
    }
    answer = answerChallenge(challenge, login);
  }
}

async function fetchOnce(url: URL, login: CameraLogin | null, limits: FetchLimits): Promise<Buffer> {
  const response = await exchange(url, login, limits);
  if (!response.ok) {
    await response.body?.cancel();
    throw new CameraFetchError(`Camera answered ${response.status}`);
  }
  try {
    return await readLimited(response, limits.maxBytes);
  } catch (error) {
    if (error instanceof CameraFetchError) throw error;
    throw new CameraFetchError(`Camera stopped sending: ${withoutUrlLogins((error as Error).message)}`);
  }
}

/**
 * The camera's current picture. Its login comes from the URL's user info (percent-decoded) or, given
 * separately, from `login`; either way it is sent only as an answer to the camera's own challenge.
 */
export async function fetchCameraImage(
  pattern: string,
  at: Date,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
  login?: CameraLogin,
): Promise<Buffer> {
  let parsed: URL;
  try {
    parsed = new URL(expandPattern(pattern, at));
  } catch {
    throw new CameraFetchError('The camera URL is not a valid URL');
  }
  if (!isWebUrl(parsed)) throw new CameraFetchError('Only http and https camera URLs are fetched');
  const { url, login: urlLogin } = splitUrlLogin(parsed);
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, login ?? urlLogin, limits);
    } catch (error) {
      // A refused login stays refused (and cameras lock accounts after a few), an oversize picture stays too large.
      const final = error instanceof CameraFetchError && error.final;
      if (attempt >= limits.retries || final) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}
