import type { CaptchaAction } from '@lakecams/contracts';
import { errorBody } from '@lakecams/service-kit';
import { type Challenge, createChallenge, type Payload, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { DEFAULTS, type IdentityOptions } from './options.ts';

const CHALLENGE_TTL_MS = 10 * 60 * 1000;

/** `unavailable`: the reCAPTCHA verifier could not be asked or gave no usable answer. */
type Verdict = 'valid' | 'invalid' | 'unavailable';

export interface Captcha {
  /** Which captcha the forms use (`/api/Captcha/Config`). */
  config(): { provider: 'recaptcha'; siteKey: string | undefined } | { provider: 'altcha' };
  /** A proof-of-work challenge for one form action (`/api/Captcha/Challenge`). */
  challenge(action: CaptchaAction): Promise<Challenge>;
  /** preHandler: 400 unless the `captcha` query parameter holds a fresh, unused solution for `action`. */
  requireCaptcha(action: CaptchaAction): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  close(): void;
}

function decodePayload(value: string): Payload | null {
  try {
    const payload = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Payload;
    return payload?.challenge?.parameters && payload.solution ? payload : null;
  } catch {
    return null;
  }
}

/** The solved challenges, each accepted once (by its signature) until it expires. */
function createUsedCaptchas(db: Kysely<Database>) {
  return {
    /** True for the first to present the challenge, false for every later one. */
    async claim(signature: string, expiresAt: Date): Promise<boolean> {
      const stored = await db
        .insertInto('usedCaptchas')
        .values({ signature, expiresAt })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return (stored.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    /** Forget the expired ones: they are refused as expired anyway. */
    async prune(): Promise<void> {
      await db.deleteFrom('usedCaptchas').where('expiresAt', '<', new Date()).execute();
    },
  };
}

/**
 * ALTCHA proof-of-work captcha (self-hosted, works offline); reCAPTCHA v3 when its keys are configured
 * (docs/product.md §5.7).
 */
export function createCaptcha(
  options: IdentityOptions['captcha'],
  db: Kysely<Database>,
  log: FastifyBaseLogger,
): Captcha {
  const usedCaptchas = createUsedCaptchas(db);
  const recaptcha = options.recaptchaSiteKey && options.recaptchaSecretKey ? options : null;
  const verifyUrl = options.recaptchaVerifyUrl ?? DEFAULTS.recaptchaVerifyUrl;

  async function verifyAltcha(action: CaptchaAction, value: string): Promise<Verdict> {
    const payload = decodePayload(value);
    if (!payload?.challenge.signature || payload.challenge.parameters.data?.action !== action) return 'invalid';
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: options.hmacSecret,
      hmacKeySignatureSecret: `${options.hmacSecret}:key`,
    }).catch(() => null);
    if (!result?.verified) return 'invalid';
    // Single use: the first request to present this challenge wins.
    const expiresAt = new Date((payload.challenge.parameters.expiresAt ?? Date.now() / 1000 + 600) * 1000);
    return (await usedCaptchas.claim(payload.challenge.signature, expiresAt)) ? 'valid' : 'invalid';
  }

  async function verifyRecaptcha(action: CaptchaAction, token: string, remoteip: string): Promise<Verdict> {
    const response = await fetch(verifyUrl, {
      method: 'POST',
      body: new URLSearchParams({ secret: recaptcha?.recaptchaSecretKey ?? '', response: token, remoteip }),
      signal: AbortSignal.timeout(5000),
    }).catch(() => null);
    const result = response?.ok
      ? ((await response.json().catch(() => null)) as { success?: unknown; action?: unknown; score?: unknown } | null)
      : null;
    if (!result) {
      log.warn({ verifyUrl, status: response?.status }, 'reCAPTCHA verification unavailable');
      return 'unavailable';
    }
    const score = typeof result.score === 'number' ? result.score : 0;
    return result.success === true && result.action === action && score >= DEFAULTS.recaptchaMinScore
      ? 'valid'
      : 'invalid';
  }

  // Expired single-use records are of no further use.
  const prune = setInterval(() => {
    usedCaptchas.prune().catch((err) => log.warn({ err }, 'pruning used captchas failed'));
  }, 3600_000);
  prune.unref();

  return {
    config: () => (recaptcha ? { provider: 'recaptcha', siteKey: recaptcha.recaptchaSiteKey } : { provider: 'altcha' }),
    challenge: (action: CaptchaAction) =>
      createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(60_000, 10_000),
        deriveKey,
        data: { action },
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: options.hmacSecret,
        hmacKeySignatureSecret: `${options.hmacSecret}:key`,
      }),
    requireCaptcha: (action: CaptchaAction) => async (request: FastifyRequest, reply: FastifyReply) => {
      const value = (request.query as { captcha?: unknown }).captcha;
      if (typeof value !== 'string' || value === '' || value.length > 8192) {
        return reply.code(400).send(errorBody(400, 'Captcha wird benötigt'));
      }
      const verdict = recaptcha ? await verifyRecaptcha(action, value, request.ip) : await verifyAltcha(action, value);
      if (verdict === 'valid') return;
      // 400 even when the verifier is down: the form gets a fresh token and the person simply tries again.
      const message =
        verdict === 'unavailable'
          ? 'Captcha konnte nicht geprüft werden, bitte erneut versuchen'
          : 'Captcha ungültig, bitte erneut versuchen';
      return reply.code(400).send(errorBody(400, message));
    },
    close: () => clearInterval(prune),
  };
}
