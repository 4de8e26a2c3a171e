import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, isSafeMethod } from './http.ts';
import {
  actorOf,
  authorize,
  createMatrixContext,
  type MatrixContext,
  type Role,
  ROUTE_ACCESS,
} from './route-access.ts';
import { type SecurityPortal, setUpFixtures, startSecurityPortal } from './security-portal.ts';

let p: SecurityPortal;
let m: MatrixContext;

beforeAll(async () => {
  p = await startSecurityPortal();
  m = await createMatrixContext(p, await setUpFixtures(p));
}, 120_000);
afterAll(async () => p?.close());

/**
 * Routes whose answer is the same whoever asks, so the route says itself how long it may be kept: a picture by
 * its immutable name (the name is the right to it), the camera list (revalidated by its ETag).
 */
const SAME_FOR_EVERY_CALLER = new Set(['GET /pictures/:camera/:file', 'GET /api/Webcam/GetImages']);

/** The event stream and the reference are the gateway's; the stream never ends. */
const UNCHECKED = new Set(['GET /api/Events/stream']);

const cacheControl = (answer: Answer) => String(answer.headers['cache-control'] ?? '');
const kept = (answer: Answer) => !/\b(no-store|private)\b/.test(cacheControl(answer));

describe('answers that differ per caller are kept by nobody', () => {
  it('marks every answer to a caller with a token, and every change or login, private and no-store', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      if (UNCHECKED.has(key) || access.rule === 'gateway') continue;
      const [method = ''] = key.split(' ');
      // Signed-in callers by bearer token (the access cookie too where the route takes it), and anonymous ones.
      const callers: [Role, boolean][] = [
        ['anonymous', false],
        ['user', false],
        ['referer', false],
        ['admin', false],
        ['adminAsReferer', false],
        ...(access.cookieAuth
          ? ([
              ['user', true],
              ['admin', true],
            ] as [Role, boolean][])
          : []),
      ];
      for (const [role, viaCookie] of callers) {
        const actor = actorOf(m, role, viaCookie);
        const prepared = await access.build(m, actor);
        const answer = await p.call(authorize(m, { ...prepared, method }, actor));
        prepared.after?.(answer);
        checked++;
        const who = `${role}${viaCookie ? ' (cookie)' : ''} ${key} ${answer.status}`;
        const credentials = actor.caller !== null || access.rule === 'refresh-cookie';
        if (!isSafeMethod(method) && !/\bno-store\b/.test(cacheControl(answer)))
          problems.push(`${who}: a change or login answered with "${cacheControl(answer)}"`);
        else if (credentials && kept(answer) && !SAME_FOR_EVERY_CALLER.has(key))
          problems.push(`${who}: answered a caller with credentials with "${cacheControl(answer)}"`);
      }
    }
    console.log(`[private answers] ${checked} answers checked`);
    expect(problems).toEqual([]);
  }, 300_000);

  it('never lets a token answer be stored: login and refresh', async () => {
    for (const key of ['POST /api/Authenticate/Authenticate', 'POST /api/Authenticate/RefreshToken']) {
      const access = ROUTE_ACCESS[key];
      const actor = actorOf(m, 'user');
      const prepared = await (access as NonNullable<typeof access>).build(m, actor);
      const answer = await p.call(authorize(m, { ...prepared, method: 'POST' }, actor));
      prepared.after?.(answer);
      expect([answer.status, cacheControl(answer)], key).toEqual([200, 'private, no-store']);
      expect(answer.text).toContain('jwtToken');
    }
  });
});
