import type { FastifyRequest } from 'fastify';

/** The client as the gateway saw it: the first X-Forwarded-For hop (the gateway replaces a client-sent one). */
export function clientAddress(request: FastifyRequest): string {
  return (
    String(request.headers['x-forwarded-for'] ?? '')
      .split(',')[0]
      ?.trim() || request.ip
  );
}

export interface LoginLimits {
  /** Failed logins counted in windows of this length. */
  windowMs: number;
  /** Failures of one account from one address. */
  perPair: number;
  /** Failures of one account from all addresses together. */
  perAccount: number;
  /** Failures from one address for all accounts together. */
  perAddress: number;
  /** A successful login makes the account's address known this long: the wider limits spare it. */
  knownForMs: number;
}

/** The thresholds for `RATE_LIMIT_PER_MINUTE` (docs/decisions.md, "Login rate limits"). */
export function loginLimits(perMinute: number): LoginLimits {
  return {
    windowMs: 15 * 60_000,
    perPair: perMinute,
    perAccount: 5 * perMinute,
    perAddress: 10 * perMinute,
    knownForMs: 30 * 24 * 3600_000,
  };
}

/** Most keys each table holds; beyond it the oldest entries go (memory stays bounded under a flood of names). */
const MAX_KEYS = 100_000;

/** Failures per key in fixed windows. */
function failureCounter(windowMs: number, now: () => number) {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const current = (key: string) => {
    const window = windows.get(key);
    if (!window || window.endsAt > now()) return window;
    windows.delete(key);
    return undefined;
  };
  return {
    /** Milliseconds until `key` is below `limit` again; 0 when it is now. */
    waitMs(key: string, limit: number): number {
      const window = current(key);
      return window && window.count >= limit ? window.endsAt - now() : 0;
    },
    add(key: string): void {
      const window = current(key);
      if (window) window.count++;
      else {
        if (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value as string);
        windows.set(key, { count: 1, endsAt: now() + windowMs });
      }
    },
    clear(key: string): void {
      windows.delete(key);
    },
  };
}

/**
 * Login throttling per account and per address (OWASP): failures are counted per account and address, per
 * account and per address. The pair's limit is the one a guessing client meets first; it locks out nobody
 * else behind the same address, and nobody elsewhere. The account's and the address's wider limits stop
 * guessing spread over many addresses or accounts, and spare the addresses an account logged in from before.
 * In memory, per replica, like the other rate limits.
 */
export function createLoginThrottle(limits: LoginLimits, now: () => number = Date.now) {
  const pairs = failureCounter(limits.windowMs, now);
  const accounts = failureCounter(limits.windowMs, now);
  const addresses = failureCounter(limits.windowMs, now);
  const known = new Map<string, number>();
  const pairOf = (account: string, address: string) => `${account.toLowerCase()}\n${address}`;
  const isKnown = (pair: string) => (known.get(pair) ?? 0) > now();

  return {
    /** Milliseconds until `account` may try again from `address`; 0 when it may now. */
    waitMs(account: string, address: string): number {
      const pair = pairOf(account, address);
      const own = pairs.waitMs(pair, limits.perPair);
      if (isKnown(pair)) return own;
      const wider = Math.max(
        accounts.waitMs(account.toLowerCase(), limits.perAccount),
        addresses.waitMs(address, limits.perAddress),
      );
      return Math.max(own, wider);
    },
    failed(account: string, address: string): void {
      pairs.add(pairOf(account, address));
      accounts.add(account.toLowerCase());
      addresses.add(address);
    },
    succeeded(account: string, address: string): void {
      const pair = pairOf(account, address);
      pairs.clear(pair);
      known.delete(pair);
      if (known.size >= MAX_KEYS) known.delete(known.keys().next().value as string);
      known.set(pair, now() + limits.knownForMs);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
