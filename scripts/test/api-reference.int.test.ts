import { CAMERA_RULES, REGISTER_RULES } from '@lakecams/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceRoute, ROUTE_ACCESS } from './security/route-access.ts';
import { type SecurityPortal, startSecurityPortal } from './security/security-portal.ts';

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> };
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string; in?: string }> };
}

/** The reference's own routes: the document does not describe itself. */
const isReference = (url: string) => url === '/api/openapi.json' || url.startsWith('/api/docs');
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

let p: SecurityPortal;
let document: Document;

beforeAll(async () => {
  p = await startSecurityPortal();
  const answer = await fetch(`${p.url}/api/openapi.json`);
  expect(answer.status).toBe(200);
  document = (await answer.json()) as Document;
}, 120_000);
afterAll(async () => p?.close());

describe('one API reference for the whole portal', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('holds every route the running apps registered under /api and /pictures, by the path the gateway routes', () => {
    const routes = p.routes.filter((r) => isServiceRoute(r.url) && r.method !== 'HEAD' && !isReference(r.url));
    const missing = routes
      .filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.app}: ${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const registered = new Set(routes.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    const extra = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .map((method) => `${method} ${path}`)
        .filter((key) => !registered.has(key)),
    );
    expect(extra, 'operations in the document that no app registered').toEqual([]);
    console.log(`[api reference] ${routes.length} operations on ${Object.keys(document.paths).length} paths`);
  });

  it("declares how callers sign in, and which operations need it: a user's token, and for some a role", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.accessCookie).toMatchObject({ type: 'apiKey', in: 'cookie' });
    const wrong: string[] = [];
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      const [method = '', url = ''] = key.split(' ');
      if (isReference(url)) continue;
      const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
      if (!operation) continue;
      const requirements = operation.security ?? [];
      const schemes = requirements.flatMap((requirement) => Object.keys(requirement));
      // An empty requirement: the operation also answers anonymous callers.
      const needsSignIn = schemes.includes('bearerAuth') && !requirements.some((r) => Object.keys(r).length === 0);
      const protectedRoute = access.rule === 'user' || access.rule === 'admin' || access.rule === 'owner';
      if (protectedRoute !== needsSignIn)
        wrong.push(`${key}: ${access.rule}, security ${JSON.stringify(requirements)}`);
      if (protectedRoute && !operation.responses['401']) wrong.push(`${key}: no 401`);
      if (access.rule === 'admin' && !operation.responses['403']) wrong.push(`${key}: no 403`);
      if (access.cookieAuth && !schemes.includes('accessCookie')) wrong.push(`${key}: the cookie is not declared`);
    }
    expect(wrong).toEqual([]);
  });

  it('states the business rules the services check on their schemas: names, urls, phones, lengths, ranges', () => {
    const body = (path: string) =>
      document.paths[path]?.post?.requestBody?.content['application/json']?.schema.properties ?? {};
    const camera = body('/api/Webcam/Set');
    expect(camera.name).toMatchObject({ pattern: CAMERA_RULES.name.pattern?.value, maxLength: 64 });
    expect(camera.pattern).toMatchObject({ pattern: CAMERA_RULES.pattern.pattern?.value, maxLength: 2000 });
    expect(camera.distance).toMatchObject({ minimum: 1, maximum: 20 });
    expect(camera.angle).toMatchObject({ minimum: 1, maximum: 360 });
    expect(camera.intervalMin).toMatchObject({ minimum: 1, maximum: 60 });
    const register = body('/api/Register/Register');
    expect(register.phoneNumber).toMatchObject({ pattern: REGISTER_RULES.phoneNumber.pattern?.value });
    expect(register.password).toMatchObject({ pattern: REGISTER_RULES.password.pattern?.value });
  });

  it('describes the multipart bodies of a layer and of a picture uploaded by hand', () => {
    const form = (path: string) =>
      Object.keys(document.paths[path]?.post?.requestBody?.content['multipart/form-data']?.schema.properties ?? {});
    expect(form('/api/Referer/SetLayer/layer')).toEqual(
      expect.arrayContaining(['url', 'cameraId', 'level', 'id', 'cron', 'enabled', 'file']),
    );
    expect(form('/api/Image/Upload')).toEqual(['file']);
  });

  it('says what the answers are: the news as text, pictures as images', () => {
    expect(Object.keys(document.paths['/api/News/News/news']?.get?.responses['200']?.content ?? {})).toEqual([
      'text/plain',
    ]);
    expect(Object.keys(document.paths['/pictures/{camera}/{file}']?.get?.responses['200']?.content ?? {})).toEqual([
      'image/jpeg',
      'image/avif',
      'image/webp',
    ]);
  });

  it('serves Swagger UI over the document at /api/docs, with its files from the portal itself', async () => {
    const page = await fetch(`${p.url}/api/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    for (const file of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)) {
      if (/^https?:/.test(file)) throw new Error(`the reference page loads ${file} from elsewhere`);
      const answer = await fetch(new URL(file, `${p.url}/api/docs/`));
      await answer.arrayBuffer();
      expect([file, answer.status]).toEqual([file, 200]);
    }
    const shown = await (await fetch(`${p.url}/api/docs/json`)).json();
    expect(shown).toEqual(document);
    const old = await fetch(`${p.url}/documentation`, { redirect: 'manual' });
    await old.body?.cancel();
    expect([old.status, old.headers.get('location')]).toEqual([301, '/api/docs']);
  });
});
