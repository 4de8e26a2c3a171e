import { createHash, randomBytes } from 'node:crypto';

/** A camera's login: from its URL's user info, or handed in on its own. */
export interface CameraLogin {
  username: string;
  password: string;
}

/** One challenge of a `WWW-Authenticate` header: its scheme and parameters (names in lower case). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Answers one challenge, request after request, for the camera's own origin. */
export interface LoginAnswer {
  scheme: 'Basic' | 'Digest';
  /** The `Authorization` header for a GET of `uri` (path and query). */
  authorization(uri: string): string;
}

/** A URL's scheme and user info, up to the last `@` of its authority; quotes and spaces end it. */
const URL_LOGIN = /([a-z][a-z\d+.-]*:\/\/)[^\s/?#"'<>\\`]*@/gi;

/** Every URL's user info taken out of a text, so a camera's password never reaches an error, a log or a record. */
export function withoutUrlLogins(text: string): string {
  return text.replace(URL_LOGIN, '$1');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: the login as typed.
    return text;
  }
}

/** The URL without its user info, and that login percent-decoded (null when the URL has none). */
export function splitUrlLogin(url: URL): { url: URL; login: CameraLogin | null } {
  if (!url.username && !url.password) return { url, login: null };
  const login = { username: decoded(url.username), password: decoded(url.password) };
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  return { url: bare, login };
}

const TOKEN = /[!#$%&'*+.^_`|~\w-]/;

/**
 * The challenges of a `WWW-Authenticate` value, several header lines joined by commas as fetch joins them:
 * `Digest realm="a", nonce="b", Basic realm="c"` → two challenges.
 */
export function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let i = 0;
  const readToken = () => {
    const start = i;
    while (i < header.length && TOKEN.test(header[i] as string)) i++;
    return header.slice(start, i);
  };
  const skipSpaces = () => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  while (i < header.length) {
    skipSpaces();
    if (header[i] === ',') {
      i++;
      continue;
    }
    const token = readToken();
    if (!token) {
      i++;
      continue;
    }
    skipSpaces();
    const current = challenges.at(-1);
    if (header[i] !== '=' || !current) {
      challenges.push({ scheme: token, params: {} });
      continue;
    }
    i++;
    skipSpaces();
    let value = '';
    if (header[i] === '"') {
      for (i++; i < header.length && header[i] !== '"'; i++) value += header[header[i] === '\\' ? ++i : i] ?? '';
      i++;
    } else {
      value = readToken();
    }
    current.params[token.toLowerCase()] = value;
  }
  return challenges;
}

/** Digest algorithms this fetch answers, strongest first, with node:crypto's hash names. */
const DIGEST_ALGORITHMS: Record<string, string> = { 'SHA-512-256': 'sha512-256', 'SHA-256': 'sha256', MD5: 'md5' };

function digestHash(challenge: Challenge): string | undefined {
  return DIGEST_ALGORITHMS[(challenge.params.algorithm ?? 'MD5').toUpperCase().replace(/-SESS$/, '')];
}

function digestQop(challenge: Challenge): 'auth' | null | undefined {
  if (challenge.params.qop === undefined) return null;
  return challenge.params.qop.split(',').some((qop) => qop.trim().toLowerCase() === 'auth') ? 'auth' : undefined;
}

/** The challenge to answer: Digest, strongest algorithm first, before Basic, which would send the password as is. */
export function chooseChallenge(challenges: readonly Challenge[]): Challenge | null {
  const digests = challenges.filter(
    (c) => c.scheme.toLowerCase() === 'digest' && c.params.nonce && digestHash(c) && digestQop(c) !== undefined,
  );
  const strength = (c: Challenge) => Object.values(DIGEST_ALGORITHMS).indexOf(digestHash(c) as string);
  const digest = digests.sort((a, b) => strength(a) - strength(b))[0];
  return digest ?? challenges.find((c) => c.scheme.toLowerCase() === 'basic') ?? null;
}

const quoted = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;

function basicAnswer(login: CameraLogin): LoginAnswer {
  const credentials = Buffer.from(`${login.username}:${login.password}`, 'utf8').toString('base64');
  return { scheme: 'Basic', authorization: () => `Basic ${credentials}` };
}

/** RFC 7616 (qop=auth, `-sess`, userhash, opaque) and the older RFC 2069 form when the challenge names no qop. */
function digestAnswer(challenge: Challenge, login: CameraLogin): LoginAnswer {
  const { realm = '', nonce = '', opaque, algorithm } = challenge.params;
  const hashName = digestHash(challenge) as string;
  const h = (text: string) => createHash(hashName).update(text, 'utf8').digest('hex');
  const qop = digestQop(challenge);
  const cnonce = randomBytes(16).toString('hex');
  let ha1 = h(`${login.username}:${realm}:${login.password}`);
  if (algorithm?.toLowerCase().endsWith('-sess')) ha1 = h(`${ha1}:${nonce}:${cnonce}`);
  const userhash = challenge.params.userhash?.toLowerCase() === 'true';
  // A username that is not ASCII goes as `username*` (RFC 8187), unless the camera wants it hashed.
  const username = userhash
    ? `username=${quoted(h(`${login.username}:${realm}`))}`
    : /^[\x20-\x7e]*$/.test(login.username)
      ? `username=${quoted(login.username)}`
      : `username*=UTF-8''${encodeURIComponent(login.username)}`;
  let count = 0;
  return {
    scheme: 'Digest',
    authorization(uri) {
      const ha2 = h(`GET:${uri}`);
      const fields = [username, `realm=${quoted(realm)}`, `nonce=${quoted(nonce)}`, `uri=${quoted(uri)}`];
      if (algorithm) fields.push(`algorithm=${algorithm}`);
      if (qop) {
        const nc = (++count).toString(16).padStart(8, '0');
        const response = h(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`);
        fields.push(`response=${quoted(response)}`, `qop=${qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`);
      } else {
        fields.push(`response=${quoted(h(`${ha1}:${nonce}:${ha2}`))}`);
      }
      if (opaque !== undefined) fields.push(`opaque=${quoted(opaque)}`);
      if (userhash) fields.push('userhash=true');
      return `Digest ${fields.join(', ')}`;
    },
  };
}

/** How `login` answers `challenge` (one chosen by `chooseChallenge`). */
export function answerChallenge(challenge: Challenge, login: CameraLogin): LoginAnswer {
  return challenge.scheme.toLowerCase() === 'digest' ? digestAnswer(challenge, login) : basicAnswer(login);
}
