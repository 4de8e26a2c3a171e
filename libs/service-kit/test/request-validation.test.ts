import { createInProcessBus } from '@lakecams/bus';
import { createSigner } from 'fast-jwt';
import { generateKeyPairSync } from 'node:crypto';
import pino from 'pino';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE, buildServiceApp, type ServiceApp } from '../src/index.ts';
import { DayOrInstant, Id, isValidDay, isValidMinute, Minute } from '../src/validation.ts';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const sign = createSigner({
  key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  algorithm: 'EdDSA',
  expiresIn: 60_000,
});
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const user = { authorization: `Bearer ${sign({ sub: '22222222-2222-4222-8222-222222222222', role: [] })}` };

/** PostgreSQL's answer to a value that does not fit, as pg hands it over. */
function databaseError(code: string, message: string) {
  return Object.assign(new Error(message), { code, severity: 'ERROR', routine: 'pg_strtoint32_safe' });
}

describe('request validation of every service', () => {
  const bus = createInProcessBus();
  const logged: { msg: string; err?: { message?: string } }[] = [];
  let app: ServiceApp;

  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    app = await buildServiceApp(
      {
        name: 'probe',
        version: '0',
        plugin: async (instance) => {
          const saved = Type.Object({
            name: Type.String({ maxLength: 20 }),
            count: Type.Integer({ minimum: 0, maximum: 60 }),
            start: Type.Optional(DayOrInstant()),
            minute: Type.Optional(Minute()),
          });
          instance.post(
            '/save',
            { onRequest: instance.requireRole(ADMIN_ROLE), schema: { body: saved } },
            async (request) => request.body,
          );
          instance.get(
            '/camera',
            { schema: { querystring: Type.Object({ id: Id(), name: Type.Optional(Type.String({ maxLength: 20 })) }) } },
            async (request) => request.query,
          );
          instance.get(
            '/camera/:id/tiles',
            { schema: { params: Type.Object({ id: Id() }) } },
            async (request) => request.params,
          );
          instance.get(
            '/offset',
            { schema: { querystring: Type.Object({ minutes: Type.Integer({ minimum: -600, maximum: 600 }) }) } },
            async (request) => request.query,
          );
          instance.get('/failing', async () => {
            throw databaseError('22003', 'value "132995288337834270" is out of range for type integer');
          });
          instance.get('/duplicate', async () => {
            throw databaseError('23505', 'duplicate key value violates unique constraint "webcams_name_key"');
          });
        },
      },
      { bus, logger, jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    );
  });
  afterAll(async () => {
    await app.close();
    await bus.close();
  });

  const save = (payload: unknown, headers: Record<string, string> = admin) =>
    app.inject({ method: 'POST', url: '/save', headers, payload: payload as object });

  it('keeps the JSON types of a body and names the field that has the wrong one', async () => {
    expect((await save({ name: 'Seesicht', count: 10 })).json()).toEqual({ name: 'Seesicht', count: 10 });
    for (const [body, message] of [
      [{ name: 123, count: 10 }, 'body/name must be string'],
      [{ name: 'Seesicht', count: '10' }, 'body/count must be integer'],
      [{ name: null, count: 10 }, 'body/name must be string'],
      [{ name: 'Seesicht', count: true }, 'body/count must be integer'],
    ] as const) {
      const answer = await save(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    }
  });

  it('still parses query strings into their declared types', async () => {
    const answer = await app.inject({ url: '/camera?id=7&name=Seesicht' });
    expect(answer.json()).toEqual({ id: 7, name: 'Seesicht' });
  });

  it('refuses ids beyond PostgreSQL integer before any query, without echoing a rounded number', async () => {
    for (const id of ['132995288337834272', '2147483648', '0', '-1', '1.5']) {
      const answer = await app.inject({ url: `/camera?id=${id}` });
      expect(answer.statusCode, id).toBe(400);
      expect(answer.json().message).toMatch(/^querystring\/id must be/);
      expect(answer.body).not.toContain('132995288337834270');
    }
    expect((await app.inject({ url: '/camera?id=2147483647' })).statusCode).toBe(200);
  });

  it('takes integers in query strings and paths in decimal digits only, with a minus only where negatives fit', async () => {
    for (const id of [
      '1e3',
      '1e309',
      '0x10',
      '0b1',
      '0o7',
      '+5',
      ' 5',
      '5 ',
      '1.0',
      'Infinity',
      '1_000',
      '١٢',
      '-0',
      '',
    ]) {
      for (const [url, field] of [
        [`/camera?id=${encodeURIComponent(id)}`, 'querystring/id'],
        [`/camera/${encodeURIComponent(id)}/tiles`, 'params/id'],
      ] as const) {
        if (id === '' && field === 'params/id') continue;
        const answer = await app.inject({ url });
        expect([answer.statusCode, answer.json().message], url).toEqual([
          400,
          `${field} must be a whole number in decimal digits`,
        ]);
      }
    }
    expect((await app.inject({ url: '/camera?id=007' })).json()).toEqual({ id: 7 });
    expect((await app.inject({ url: '/camera/42/tiles' })).json()).toEqual({ id: 42 });
    expect((await app.inject({ url: '/offset?minutes=-90' })).json()).toEqual({ minutes: -90 });
    for (const minutes of ['-1e2', '--1', '-', '- 1', '0x-1']) {
      const answer = await app.inject({ url: `/offset?minutes=${encodeURIComponent(minutes)}` });
      expect([answer.statusCode, answer.json().message], minutes).toEqual([
        400,
        'querystring/minutes must be a whole number in decimal digits',
      ]);
    }
    const repeated = await app.inject({ url: '/camera?id=1&id=0x10' });
    expect(repeated.statusCode).toBe(400);
  });

  it('reads JSON in UTF-8 only and no text/plain: 415 for another type or charset, 400 for bytes that are no UTF-8', async () => {
    const raw = (contentType: string, payload: Buffer | string, headers: Record<string, string> = admin) =>
      app.inject({ method: 'POST', url: '/save', headers: { ...headers, 'content-type': contentType }, payload });
    const valid = JSON.stringify({ name: 'Zürisee', count: 1 });
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
    ]) {
      const answer = await raw(contentType, Buffer.from(valid));
      expect([answer.statusCode, answer.json()], contentType).toEqual([200, { name: 'Zürisee', count: 1 }]);
    }
    const refused: [string, Buffer | string, number, string][] = [
      [
        'text/plain',
        valid,
        415,
        'A body of type text/plain is not read here: send application/json (uploads: multipart/form-data)',
      ],
      [
        'text/plain; charset=utf-8',
        valid,
        415,
        'A body of type text/plain is not read here: send application/json (uploads: multipart/form-data)',
      ],
      [
        'application/x-www-form-urlencoded',
        'name=Seesicht&count=1',
        415,
        'A body of type application/x-www-form-urlencoded is not read here: send application/json (uploads: multipart/form-data)',
      ],
      [
        'application/json; charset=utf-16',
        Buffer.from(valid, 'utf16le'),
        415,
        'JSON is read in UTF-8 only, not charset=utf-16',
      ],
      [
        'application/json; charset=iso-8859-1',
        Buffer.from(valid, 'latin1'),
        415,
        'JSON is read in UTF-8 only, not charset=iso-8859-1',
      ],
      [
        'application/json',
        Buffer.concat([Buffer.from('{"name":"Z'), Buffer.from([0xfc]), Buffer.from('risee","count":1}')]),
        400,
        'The body is not valid UTF-8',
      ],
      [
        'application/json',
        Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
        400,
        'The body is not valid UTF-8',
      ],
    ];
    for (const [contentType, payload, status, message] of refused) {
      const answer = await raw(contentType, payload);
      expect([answer.statusCode, answer.json().message], contentType).toEqual([status, message]);
    }
    // Rights first: an anonymous caller learns nothing about the body rules.
    expect((await raw('text/plain', valid, {})).statusCode).toBe(401);
    // No route, no body read: a path asked with a method it lacks is 405, an unknown one 404, whatever the body.
    for (const [method, url, status] of [
      ['OPTIONS', '/save', 405],
      ['PATCH', '/save', 405],
      ['POST', '/nowhere', 404],
    ] as const) {
      for (const contentType of ['text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16']) {
        const answer = await app.inject({ method, url, headers: { 'content-type': contentType }, payload: valid });
        expect(answer.statusCode, `${method} ${url} ${contentType}`).toBe(status);
      }
    }
    // A Content-Type with no body after it is no body.
    const empty = await app.inject({ url: '/camera?id=1', method: 'GET', headers: { 'content-type': 'text/plain' } });
    expect(empty.statusCode).toBe(200);
  });

  it('refuses NUL characters in bodies, query strings and property names', async () => {
    const cases: [Promise<{ statusCode: number; json(): { message: string } }>, string][] = [
      [save({ name: 'See\u0000sicht', count: 1 }), 'body/name must not contain NUL characters'],
      [save({ name: 'Seesicht', count: 1, 'x\u0000': 1 }), 'body/x\u0000 must not contain NUL characters'],
      [app.inject({ url: '/camera?id=1&name=%00' }), 'querystring/name must not contain NUL characters'],
    ];
    for (const [answer, message] of cases) {
      const { statusCode, json } = await answer;
      expect([statusCode, json().message]).toEqual([400, message]);
    }
  });

  it('answers a date that is not on the calendar with "is not a valid date", naming the field', async () => {
    for (const start of ['2026-11-24T99:99:99Z', '2026-13-45', '2026-01-01xyz', '0000-00-00', '2026-02-30']) {
      const answer = await save({ name: 'Seesicht', count: 1, start });
      expect([answer.statusCode, answer.json().message], start).toEqual([400, 'body/start is not a valid date']);
    }
    const minute = await save({ name: 'Seesicht', count: 1, minute: '999999999999' });
    expect(minute.json().message).toBe('body/minute is not a valid date');
    for (const start of ['2026-11-24', '2026-11-24T13:45:00Z', '2026-11-24T13:45:00.000+01:00']) {
      expect((await save({ name: 'Seesicht', count: 1, start })).statusCode, start).toBe(200);
    }
  });

  it('answers 401 and 403 before it reads or validates the body', async () => {
    const broken = { 'content-type': 'application/json' };
    const anonymous = await app.inject({ method: 'POST', url: '/save', headers: broken, payload: '{"name":' });
    expect([anonymous.statusCode, anonymous.json().message]).toEqual([401, 'Authentication required']);
    const plain = await app.inject({ method: 'POST', url: '/save', headers: { ...user, ...broken }, payload: 'x' });
    expect(plain.statusCode).toBe(403);
    expect((await save({ name: 5 }, {})).statusCode).toBe(401);
  });

  it("never passes PostgreSQL's text on, and logs it", async () => {
    const outOfRange = await app.inject({ url: '/failing' });
    expect(outOfRange.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'A value in the request cannot be stored',
    });
    const duplicate = await app.inject({ url: '/duplicate' });
    expect([duplicate.statusCode, duplicate.json().message]).toEqual([409, 'This exists already']);
    expect(duplicate.body).not.toContain('webcams_name_key');
    expect(logged.map((line) => line.err?.message)).toEqual(
      expect.arrayContaining([
        'value "132995288337834270" is out of range for type integer',
        'duplicate key value violates unique constraint "webcams_name_key"',
      ]),
    );
  });
});

describe('calendar checks', () => {
  it('accepts real days and minutes only', () => {
    const instant = (text: string) => isValidDay(text, true);
    expect(['2026-11-24', '2024-02-29', '2026-11-24T23:59:59Z', '2026-11-24T00:00+02:00'].map(instant)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['2026-11-24', '2026-11-24T23:59:59Z'].map((text) => isValidDay(text))).toEqual([true, false]);
    expect(['2025-02-29', '2026-11-24T24:00:00Z', '2026-11-24T12:00:00+25:00', '26-11-24', ''].map(instant)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['202611241345', '202402290000'].map(isValidMinute)).toEqual([true, true]);
    expect(['999999999999', '202611241360', '202502290000', '20261124134'].map(isValidMinute)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
