import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, isSafeMethod } from './security/http.ts';
import {
  actorOf,
  authorize,
  createMatrixContext,
  type MatrixContext,
  type Prepared,
  ROLES,
  ROUTE_ACCESS,
  withInvalidInput,
} from './security/route-access.ts';
import { type SecurityPortal, setUpFixtures, startSecurityPortal } from './security/security-portal.ts';

interface Response {
  content?: Record<string, { schema?: object }>;
}
interface Parameter {
  in: string;
  name: string;
  schema?: { type?: string; maxLength?: number; maximum?: number; enum?: unknown[]; pattern?: string };
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, Response>; parameters?: Parameter[] }>>;
}

/** A value the parameter's own schema refuses, or none when the schema takes anything. */
function violating(schema: Parameter['schema']): string | null {
  if (!schema) return null;
  if (schema.type === 'integer' || schema.type === 'number') return 'x1';
  if (schema.enum) return 'NOT_ONE_OF_THEM';
  if (schema.maxLength !== undefined) return 'x'.repeat(schema.maxLength + 1);
  if (schema.type === 'boolean') return 'perhaps';
  return null;
}

/** The reference itself and the event stream are not calls with an answer to check. */
const UNCHECKED = (url: string) =>
  url === '/api/openapi.json' || url.startsWith('/api/docs') || url === '/api/Events/stream';
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

let p: SecurityPortal;
let m: MatrixContext;
let document: Document;
// Formats are the services' business; the contract is about shapes and types.
const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
const validators = new Map<object, ValidateFunction>();

beforeAll(async () => {
  p = await startSecurityPortal({ withShellPage: true });
  m = await createMatrixContext(p, await setUpFixtures(p));
  document = (await (await fetch(`${p.url}/api/openapi.json`)).json()) as Document;
}, 120_000);
afterAll(async () => p?.close());

/** What is wrong with an answer by the document's own word: its status, content type and body. */
function contractProblem(method: string, url: string, answer: Answer): string | null {
  const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
  if (!operation) return 'not in the document';
  const declared = operation.responses[String(answer.status)] ?? operation.responses.default;
  if (!declared) return `status ${answer.status} is not declared (${Object.keys(operation.responses).join(', ')})`;
  const type =
    String(answer.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  // An empty body still says what it is: the declared media type must be the one sent.
  if (!declared.content) return answer.body.length > 0 ? `${answer.status} sends ${type}, declares no body` : null;
  if (type === '' && answer.body.length === 0) return null;
  const media = declared.content[type];
  if (!media) return `${answer.status} as ${type}, declared ${Object.keys(declared.content).join(', ')}`;
  if (answer.body.length === 0 || type !== 'application/json' || !media.schema) return null;
  const validate = validators.get(media.schema) ?? ajv.compile(media.schema);
  validators.set(media.schema, validate);
  if (validate(answer.json)) return null;
  return `${answer.status} body does not fit its schema: ${ajv.errorsText(validate.errors)} in ${answer.text.slice(0, 200)}`;
}

async function check(key: string, role: (typeof ROLES)[number], spoil: boolean) {
  const [method = '', url = ''] = key.split(' ');
  const access = ROUTE_ACCESS[key];
  if (!access) return null;
  const actor = actorOf(m, role);
  const built: Prepared = await access.build(m, actor);
  const prepared = spoil ? withInvalidInput(built) : built;
  const answer = await p.call(authorize(m, { ...prepared, method }, actor));
  prepared.after?.(answer);
  const problem = contractProblem(method, url, answer);
  return problem && `${role} ${key}${spoil ? ' (invalid input)' : ''} → ${problem}`;
}

describe('the API answers as its reference says', () => {
  const keys = () => Object.keys(ROUTE_ACCESS).filter((key) => !UNCHECKED(key.split(' ')[1] ?? ''));

  it('declares every status, content type and body that every kind of caller gets', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const key of keys()) {
      for (const role of ROLES) {
        const problem = await check(key, role, false);
        checked++;
        if (problem) problems.push(problem);
      }
    }
    console.log(`[api contract] ${checked} answers checked against /api/openapi.json`);
    expect(problems).toEqual([]);
  }, 300_000);

  it('refuses with 400 each query value its schema refuses, one parameter at a time, as an administrator', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const key of keys()) {
      const [method = '', url = ''] = key.split(' ');
      const access = ROUTE_ACCESS[key];
      const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
      if (!access || !operation) continue;
      for (const parameter of operation.parameters ?? []) {
        const bad = parameter.in === 'query' ? violating(parameter.schema) : null;
        if (bad === null) continue;
        const actor = actorOf(m, 'admin');
        const prepared = await access.build(m, actor);
        const [path = '', query = ''] = prepared.path.split('?');
        const values = new URLSearchParams(query);
        values.set(parameter.name, bad);
        const answer = await p.call(authorize(m, { ...prepared, method, path: `${path}?${values}` }, actor));
        prepared.after?.(answer);
        checked++;
        const problem =
          answer.status !== 400
            ? `expected 400, got ${answer.status} ${answer.text.slice(0, 150)}`
            : contractProblem(method, url, answer);
        if (problem) problems.push(`${key} with ${parameter.name}=${bad.slice(0, 20)} → ${problem}`);
      }
    }
    console.log(`[api contract] ${checked} requests with one query value its schema refuses`);
    expect(checked).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  }, 300_000);

  it('declares what the HTTP layer answers: a path segment too long, headers too large', async () => {
    const long = await p.call({ method: 'GET', path: `/api/Image/Get/camera/${'x'.repeat(150)}.jpg` });
    expect([long.status, contractProblem('GET', '/api/Image/Get/camera/:file', long)]).toEqual([414, null]);
    const operation = document.paths['/api/Webcam/GetImages']?.get;
    expect(Object.keys(operation?.responses ?? {})).toContain('431');
  });

  it('declares the answer to a conditional request: 304 where a route sent an ETag', async () => {
    const problems: string[] = [];
    const conditional: string[] = [];
    for (const key of keys()) {
      const [method = '', url = ''] = key.split(' ');
      const access = ROUTE_ACCESS[key];
      if (method !== 'GET' || !access) continue;
      for (const role of ['anonymous', 'admin'] as const) {
        const actor = actorOf(m, role);
        const prepared = await access.build(m, actor);
        const first = await p.call(authorize(m, { ...prepared, method }, actor));
        prepared.after?.(first);
        const etag = first.headers.etag;
        if (first.status !== 200 || typeof etag !== 'string') continue;
        const again = authorize(m, { ...prepared, method }, actor);
        const answer = await p.call({ ...again, headers: { ...again.headers, 'if-none-match': etag } });
        prepared.after?.(answer);
        conditional.push(`${role} ${key} ${answer.status}`);
        const problem = answer.status === 304 ? contractProblem(method, url, answer) : `${answer.status}, not 304`;
        if (problem) problems.push(`${role} ${key} with If-None-Match → ${problem}`);
      }
    }
    console.log(`[api contract] conditional requests: ${conditional.join('; ')}`);
    expect(conditional.some((line) => line.includes('/pictures/'))).toBe(true);
    expect(problems).toEqual([]);
  }, 300_000);

  it('declares 413 and 415 on every route that takes a body: too large, and not JSON or a form', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const key of keys()) {
      const [method = '', url = ''] = key.split(' ');
      const access = ROUTE_ACCESS[key];
      if (!access || isSafeMethod(method)) continue;
      const actor = actorOf(m, access.rule === 'public' ? 'anonymous' : 'admin');
      const prepared = await access.build(m, actor);
      const { json: _json, multipart: _multipart, raw: _raw, ...bare } = prepared;
      // The form routes take a bigger body (a picture): 30 MB is over any of them.
      const tooLarge = { contentType: 'application/json', body: `"${'x'.repeat(30 * 1024 * 1024)}"` };
      for (const [expected, raw] of [
        [415, { contentType: 'text/plain', body: JSON.stringify(prepared.json ?? {}) }],
        [413, tooLarge],
      ] as const) {
        const answer = await p.call(authorize(m, { ...bare, method, raw }, actor));
        checked++;
        const problem =
          answer.status === expected
            ? contractProblem(method, url, answer)
            : `${answer.status}, not ${expected}: ${answer.text.slice(0, 150)}`;
        if (problem) problems.push(`${key} ${raw.contentType} → ${problem}`);
      }
    }
    console.log(`[api contract] ${checked} bodies too large or of a type no route reads`);
    expect(problems).toEqual([]);
  }, 300_000);

  it('declares the 409 of a registration whose username exists already', async () => {
    const access = ROUTE_ACCESS['POST /api/Register/Register'];
    const actor = actorOf(m, 'anonymous');
    const prepared = (await access?.build(m, actor)) as Prepared;
    const first = await p.call(authorize(m, prepared, actor));
    expect(first.status).toBe(200);
    const again = (await access?.build(m, actor)) as Prepared;
    const answer = await p.call(authorize(m, { ...again, json: prepared.json }, actor));
    expect([answer.status, contractProblem('POST', '/api/Register/Register', answer)]).toEqual([409, null]);
    expect(answer.json.message).toBe('This username is already taken');
  });

  it('answers /api and every unknown path below it with the JSON 404, never the page', async () => {
    for (const path of ['/api', '/api/', '/api?x=1', '/api/Nothing', '/api/Webcam', '/api/Webcam/Nothing/here']) {
      const answer = await p.call({ method: 'GET', path });
      expect([answer.status, answer.headers['content-type'], answer.json?.statusCode], path).toEqual([
        404,
        'application/json; charset=utf-8',
        404,
      ]);
    }
  });

  it('declares the refusals of invalid input: every query value a NUL, bodies that are no JSON or no form', async () => {
    const problems: string[] = [];
    for (const key of keys()) {
      for (const role of ['anonymous', 'user', 'admin'] as const) {
        const problem = await check(key, role, true);
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
