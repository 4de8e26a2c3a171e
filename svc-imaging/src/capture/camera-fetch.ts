import { type LocalDateParts, localDateParts } from '@lakecams/contracts';
/** Fetching a camera's current picture: http(s) only, bounded in time and size, retried with backoff. */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  retries: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 15_000, maxBytes: 25 * 1024 * 1024, retries: 2 };

export class CameraFetchError extends Error {}

const PLACEHOLDER = /\{(yyyy|MM|dd|HH|mm)\}/g;

/** `{yyyy}`, `{MM}`, `{dd}`, `{HH}`, `{mm}` in a camera pattern become the tick's local date and time. */
export function expandPattern(pattern: string, at: Date, timeZone = 'Europe/Zurich'): string {
  const values = localDateParts(at, timeZone);
  return pattern.replace(PLACEHOLDER, (_m, key: keyof LocalDateParts) => values[key]);
}

async function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new CameraFetchError(`Image too large (${declared} bytes, limit ${maxBytes})`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new CameraFetchError(`Image too large (over ${maxBytes} bytes)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function fetchOnce(url: URL, limits: FetchLimits): Promise<Buffer> {
  const controller = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal: controller, redirect: 'follow' });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${limits.timeoutMs} ms` : (error as Error).message;
    throw new CameraFetchError(`Camera unreachable: ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new CameraFetchError(`Camera answered ${response.status}`);
  }
  try {
    return await readLimited(response, limits.maxBytes);
  } catch (error) {
    if (error instanceof CameraFetchError) throw error;
    throw new CameraFetchError(`Camera stopped sending: ${(error as Error).message}`);
  }
}

export async function fetchCameraImage(
  pattern: string,
  at: Date,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(expandPattern(pattern, at));
  } catch {
    throw new CameraFetchError('The camera URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CameraFetchError('Only http and https camera URLs are fetched');
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, limits);
    } catch (error) {
      const tooLarge = (error as Error).message.startsWith('Image too large');
      if (attempt >= limits.retries || tooLarge) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}
