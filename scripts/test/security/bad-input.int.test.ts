import { ACCESS_COOKIE, isValidCameraName } from '@lakecams/contracts';
import { HIDDEN_CHARACTERS } from '@lakecams/contracts/testing';
import fc from 'fast-check';
import sharp from 'sharp';
import { createHmac, createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  isSafeMethod,
  type RequestSpec,
  sendBodyUnheeding,
  sendRawRequest,
  withAntiForgery,
} from './http.ts';
import { type Actor, isServiceRoute, type MatrixContext, ROUTE_ACCESS } from './route-access.ts';
import {
  type Account,
  type Fixtures,
  layerUpload,
  type SecurityPortal,
  setUpFixtures,
  snapshot,
  startSecurityPortal,
  testJpeg,
  testPng,
} from './security-portal.ts';

let p: SecurityPortal;
let f: Fixtures;
let m: MatrixContext;
/** Per route: query and body property names from the services' OpenAPI documents. */
const shapes = new Map<string, { query: string[]; body: string[] }>();
/** Query parameters declared as numbers, by route and name (`GET /api/Referer/GetCameraInfo cameraId`). */
const numericQuery = new Set<string>();
/** Every schema a request part is validated with, by where it applies (`POST /api/… query webcamId`). */
const requestSchemas: [string, JsonSchema][] = [];
const tried: Record<string, number> = {};

beforeAll(async () => {
  p = await startSecurityPortal();
  f = await setUpFixtures(p);
  let counter = 0;
  m = { p, f, next: () => ++counter, victims: new Map(), news: '' };
  for (const service of Object.values(p.portal.services)) {
    const document = service.swagger() as {
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string; schema: JsonSchema }[]; requestBody?: unknown }>
      >;
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const content = (operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> })?.content;
        const bodySchema = content?.['application/json']?.schema;
        const body = bodySchema?.properties;
        const where = `${method.toUpperCase()} ${path}`;
        if (bodySchema) requestSchemas.push([`${where} body`, bodySchema]);
        // A form's fields are text too: the route checks what its document declares.
        const form = content?.['multipart/form-data']?.schema;
        if (form) requestSchemas.push([`${where} form`, form]);
        for (const parameter of operation.parameters ?? []) {
          requestSchemas.push([`${where} ${parameter.in} ${parameter.name}`, parameter.schema]);
          if (parameter.in === 'query' && ['integer', 'number'].includes(parameter.schema.type ?? ''))
            numericQuery.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')} ${parameter.name}`);
        }
        shapes.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, {
          query: (operation.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name),
          body: Object.keys(body ?? {}),
        });
      }
    }
  }
}, 120_000);
afterAll(async () => {
  console.log(
    `[bad-input] inputs tried: ${Object.entries(tried)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; total ${Object.values(tried).reduce((a, b) => a + b, 0)}`,
  );
  await p?.close();
});

/** PostgreSQL's own words, which name tables, columns and values: never for the client. */
const DATABASE_TEXT =
  /out of range for type|invalid byte sequence|invalid input syntax|violates .* constraint|date\/time field/;

/** Every answer: never 5xx, a 4xx says what was wrong, and never in the database's words. */
function problemWith(answer: Answer, method: string): string | null {
  if (answer.status >= 500 || answer.status < 100) return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (DATABASE_TEXT.test(answer.text)) return `the database's message passed on: ${answer.text.slice(0, 300)}`;
  if (answer.status >= 400 && method !== 'HEAD') {
    const message = answer.json?.message;
    if (typeof message !== 'string' || message.trim() === '')
      return `4xx without a message: ${answer.text.slice(0, 300)}`;
  }
  return null;
}

function check(answer: Answer, spec: RequestSpec, suite: string): Answer {
  tried[suite] = (tried[suite] ?? 0) + 1;
  const problem = problemWith(answer, spec.method);
  if (problem) throw new Error(`${spec.method} ${spec.path.slice(0, 300)} → ${problem}`);
  return answer;
}

/** The API routes and the pictures by name, as the running apps registered them (HEAD follows GET). */
function apiRoutes(filter: (method: string) => boolean) {
  return p.routes.filter((r) => isServiceRoute(r.url) && r.method !== 'HEAD' && filter(r.method));
}

/** A concrete path for a route pattern: parameters become the fixture camera and its picture. */
function concretePath(url: string): string {
  if (url === '/pictures/:camera/:file') return f.picturePath;
  return url.replace(':camera/:file', `${f.camera.name}/${f.imageName}.jpg`).replace(':file', `${f.camera.name}.jpg`);
}

const callers = () =>
  fc.constantFrom<[string, Account | null]>(['admin', p.admin], ['referer', f.referer], ['anonymous', null]);
const authorization = (caller: Account | null): Record<string, string> =>
  caller ? { authorization: `Bearer ${caller.token}` } : {};

/** Values that break parsers and validators: wrong types, bounds, encodings, sizes. */
const nastyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    '1e3',
    '0x10',
    '+5',
    ' 7',
    '1.0',
    'Infinity',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    "' OR 1=1 --",
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\uFFFF',
    '😀'.repeat(30),
    'x'.repeat(5000),
    '9'.repeat(40),
    '2147483648',
    '00000000-0000-0000-0000-000000000000',
    'https://partner.example.org/seeblick',
    '<script>alert(1)</script>',
  ),
  fc.integer().map(String),
  fc.uuid(),
);
const nastyValue = fc.oneof(
  nastyText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), nastyText, { maxKeys: 3 }),
);

function queryArbitrary(keys: string[]) {
  const key =
    keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 10 })) : fc.string({ maxLength: 10 });
  return fc
    .array(fc.tuple(key, nastyText), { maxLength: 5 })
    .map((pairs) =>
      pairs.length === 0
        ? ''
        : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
    );
}

function bodyArbitrary(keys: string[]): fc.Arbitrary<RequestSpec['raw'] | { json: unknown } | undefined> {
  const shaped =
    keys.length > 0 ? fc.dictionary(fc.constantFrom(...keys), nastyValue, { maxKeys: keys.length }) : fc.constant({});
  return fc.oneof(
    { weight: 4, arbitrary: shaped.map((json) => ({ json })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'application/json',
            'application/json; charset=utf-16',
            'application/json; charset=iso-8859-1',
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/xml',
            'multipart/form-data',
          ),
          fc.oneof(
            fc.string({ maxLength: 200 }),
            fc.constantFrom('{"a":', '{"__proto__":{"x":1}}', 'a=1&b=2', '<x/>', '\u0000'),
            // Bytes that are no UTF-8, alone and inside JSON.
            fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
            fc
              .uint8Array({ minLength: 1, maxLength: 8 })
              .map((bytes) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')])),
          ),
        )
        .map(([contentType, body]) => ({ contentType, body })),
    },
  );
}

describe('bad input at every route: never 5xx, 4xx with a message, nothing stored when refused', () => {
  it('random query strings on every GET route', async () => {
    // Log-off would end the shared logins the other requests use; it has tests of its own.
    const routes = apiRoutes((method) => method === 'GET').filter(
      (r) => r.url !== '/api/Events/stream' && r.url !== '/api/Authenticate/LogOut/logout',
    );
    const input = fc
      .constantFrom(...routes)
      .chain((route) => fc.tuple(fc.constant(route), queryArbitrary(shapes.get(`GET ${route.url}`)?.query ?? [])));
    await fc.assert(
      fc.asyncProperty(input, callers(), async ([route, query], [, caller]) => {
        const spec = { method: 'GET', path: `${concretePath(route.url)}${query}`, headers: authorization(caller) };
        check(await p.call(spec), spec, 'query strings');
      }),
      { numRuns: 1200 },
    );
  }, 120_000);
});

/** A picture with detail, so that any cut loses image data (a flat picture's scan is a few bytes). */
async function noisyJpeg(): Promise<Buffer> {
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  return sharp({ create: { width: 320, height: 180, channels: 3, background: '#000000', noise } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A PNG whose header claims `width` × `height` (a decompression bomb is refused before decoding). */
function pixelBomb(png: Buffer, width: number, height: number): Buffer {
  const bomb = Buffer.from(png);
  bomb.writeUInt32BE(width, 16);
  bomb.writeUInt32BE(height, 20);
  bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
  return bomb;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Files that are not (complete) images, whatever their name and type say. */
function notImages(jpeg: Buffer, png: Buffer) {
  return fc.oneof(
    fc.uint8Array({ maxLength: 4096 }).map((bytes) => ['random bytes', Buffer.from(bytes)] as const),
    fc.integer({ min: 0, max: jpeg.length - 3 }).map((cut) => [`JPEG cut at ${cut}`, jpeg.subarray(0, cut)] as const),
    fc.integer({ min: 0, max: png.length - 13 }).map((cut) => [`PNG cut at ${cut}`, png.subarray(0, cut)] as const),
    fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((junk) => [`JPEG header followed by junk`, Buffer.concat([jpeg.subarray(0, 2), junk])] as const),
    fc.constantFrom(
      ['empty', Buffer.alloc(0)] as const,
      ['text', Buffer.from('just some text, not a picture')] as const,
      ['html', Buffer.from('<html><script>alert(1)</script></html>')] as const,
      [
        'svg',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'),
      ] as const,
      ['pdf', Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF')] as const,
      ['JPEG header only', jpeg.subarray(0, 2)] as const,
      ['PNG claiming 100000 × 100000 pixels', pixelBomb(png, 100_000, 100_000)] as const,
      ['PNG claiming 20000 × 20000 pixels', pixelBomb(png, 20_000, 20_000)] as const,
    ),
  );
}

/** A picture over the pixel limit is an image, only too large (413, naming the limit); the rest are not images. */
const refusalOf = (what: string) => (what.startsWith('PNG claiming') ? 413 : 400);

const fileMeta = fc.record({
  filename: fc.constantFrom(
    'picture.jpg',
    'layer.png',
    '../../etc/passwd',
    'x.exe',
    '',
    'a'.repeat(300),
    'bild\u0000.jpg',
  ),
  contentType: fc.constantFrom('image/jpeg', 'image/png', 'application/octet-stream', 'text/html', 'image/svg+xml'),
});

describe('uploads: non-images, truncated pictures, wrong fields, oversized files', () => {
  it('refuses every non-image layer and stores no layer', async () => {
    const jpeg = await noisyJpeg();
    const png = await testPng(200, 120);
    const before = await snapshot(p);
    await fc.assert(
      fc.asyncProperty(notImages(jpeg, png), fileMeta, async ([what, bytes], meta) => {
        const spec = layerUpload(f.refererUrl, f.camera.id, Buffer.alloc(0));
        spec.multipart[spec.multipart.length - 1] = { name: 'file', file: { ...meta, bytes } };
        const answer = check(await p.as(f.referer, spec), spec, 'layer uploads');
        expect(answer.status, `${what}: ${answer.text}`).toBe(refusalOf(what));
      }),
      { numRuns: 300 },
    );
    expect(await snapshot(p)).toEqual(before);
  }, 120_000);

  it('refuses every non-image picture upload and records no capture', async () => {
    const jpeg = await noisyJpeg();
    const png = await testPng(200, 120);
    const before = await snapshot(p);
    await fc.assert(
      fc.asyncProperty(notImages(jpeg, png), fileMeta, async ([what, bytes], meta) => {
        const spec: RequestSpec = {
          method: 'POST',
          path: `/api/Image/Upload?webcamId=${f.spareCamera.id}`,
          multipart: [{ name: 'file', file: { ...meta, bytes } }],
        };
        const answer = check(await p.as(p.admin, spec), spec, 'picture uploads');
        expect(answer.status, `${what}: ${answer.text}`).toBe(refusalOf(what));
      }),
      { numRuns: 300 },
    );
    expect(await snapshot(p)).toEqual(before);
  }, 120_000);

  it('refuses malformed forms: wrong field names, extra files, odd fields, broken multipart', async () => {
    const png = await testPng();
    const jpeg = await testJpeg(320, 180);
    const before = await snapshot(p);
    const field = fc.constantFrom(
      'url',
      'level',
      'id',
      'enabled',
      'cron',
      'cameraId',
      'file',
      'image',
      'files',
      'file[]',
      '',
    );
    const part = fc.oneof(
      fc.tuple(field, nastyText).map(([name, value]) => ({ name, value })),
      fc.tuple(field, fileMeta).map(([name, meta]) => ({ name, file: { ...meta, bytes: png } })),
    );
    const form = fc.oneof(
      fc.array(part, { maxLength: 6 }).map((parts) => ({ multipart: parts })),
      fc
        .constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=x',
          'multipart/mixed; boundary=x',
          'application/json',
        )
        .chain((contentType) =>
          fc
            .oneof(
              fc.string({ maxLength: 200 }),
              fc.constantFrom('--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', '--x--', '--x\r\n\r\n'),
            )
            .map((body) => ({ raw: { contentType, body } })),
        ),
    );
    const targets = fc.constantFrom<[string, Account, (form: Partial<RequestSpec>) => RequestSpec]>(
      ['SetLayer', f.referer, (body) => ({ method: 'POST', path: '/api/Referer/SetLayer/layer', ...body })],
      [
        'Upload',
        p.admin,
        (body) => ({ method: 'POST', path: `/api/Image/Upload?webcamId=${f.spareCamera.id}`, ...body }),
      ],
    );
    const accepted: string[] = [];
    await fc.assert(
      fc.asyncProperty(targets, form, async ([name, caller, build], body) => {
        const spec = build(body);
        const answer = check(await p.as(caller, spec), spec, 'malformed forms');
        if (answer.status < 300) accepted.push(name);
      }),
      { numRuns: 400 },
    );
    // A random form can be a valid one (a layer with a url, a camera and the right file): then something is stored.
    if (accepted.length === 0) expect(await snapshot(p)).toEqual(before);
    console.log(`[bad-input] malformed forms accepted as valid: ${accepted.length}`);
    void jpeg;
  }, 120_000);

  it('refuses oversized files with 413 before storing anything', async () => {
    const before = await snapshot(p);
    const big = (bytes: number) => Buffer.concat([Buffer.alloc(bytes, 0xff)]);
    const layer = layerUpload(f.refererUrl, f.camera.id, big(5 * 1024 * 1024 + 1));
    const layerAnswer = check(await p.as(f.referer, layer), layer, 'oversized');
    expect(layerAnswer.status).toBe(413);
    const upload: RequestSpec = {
      method: 'POST',
      path: `/api/Image/Upload?webcamId=${f.spareCamera.id}`,
      multipart: [
        { name: 'file', file: { filename: 'big.jpg', contentType: 'image/jpeg', bytes: big(25 * 1024 * 1024 + 1) } },
      ],
    };
    const uploadAnswer = check(await p.as(p.admin, upload), upload, 'oversized');
    expect(uploadAnswer.status).toBe(413);
    const json: RequestSpec = {
      method: 'PUT',
      path: '/api/News/News/news',
      json: { text: 'x'.repeat(2 * 1024 * 1024) },
    };
    expect(check(await p.as(p.admin, json), json, 'oversized').status).toBe(413);
    expect(await snapshot(p)).toEqual(before);
  }, 60_000);

  it('answers 12 MB of JSON sent at once with 413 and the error body, through the gateway and at a service', async () => {
    const before = await snapshot(p);
    const news = (headers: Record<string, string>): RequestSpec => ({
      method: 'PUT',
      path: '/api/News/News/news',
      headers,
      json: { text: 'x'.repeat(12 * 1024 * 1024) },
    });
    const admin = { authorization: `Bearer ${p.admin.token}` };
    const service = await p.portal.services.webcam.listen({ host: '127.0.0.1', port: 0 });
    for (const [where, base, spec] of [
      ['gateway', p.url, news(withAntiForgery(p.xsrf, admin))],
      ['gateway, anonymous', p.url, news(withAntiForgery(p.xsrf))],
      ['svc-webcam', service, news(admin)],
      ['svc-webcam, anonymous', service, news({})],
    ] as const) {
      // No Expect: 100-continue, and nothing read before the last byte is sent.
      const answer = await sendBodyUnheeding(base, spec);
      tried.oversized = (tried.oversized ?? 0) + 1;
      const status = where.endsWith('anonymous') ? 401 : 413;
      expect([answer.status, answer.json?.statusCode], where).toEqual([status, status]);
    }
    expect(await snapshot(p)).toEqual(before);
  }, 120_000);
});

describe('path segments: traversal, encodings, NUL, unicode, very long names', () => {
  const segment = () =>
    fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '..%2f..%2f..%2fetc%2fpasswd',
        '%2e%2e',
        '%2e%2e%2f%2e%2e%2fetc%2fpasswd.jpg',
        '%2E%2E%5C%2E%2E%5Cwindows',
        '..%5c..%5c',
        '%252e%252e%252f',
        '%c0%ae%c0%ae%c0%af',
        '%00',
        'Richterswil%00.jpg',
        'Richterswil.jpg%00',
        'Richterswil%2Ejpg',
        '%2f',
        '',
        '..;',
        '%ff%fe',
        '%',
        '%zz',
        'Richterswil.JPG',
        'Richterswil.jpg',
        'Richterswil',
        '%20Richterswil.jpg',
        'Richterswil.jpg.png',
        'etc',
        'passwd',
        '~root',
        '$(id)',
        '%0d%0aSet-Cookie:%20x=1',
      ),
      fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => encodeURIComponent(text)),
      fc.integer({ min: 60, max: 4000 }).map((n) => `${'a'.repeat(n)}.jpg`),
      fc.webSegment(),
    );
  const prefixes = [
    '/api/Image/Get/camera/',
    '/api/Image/Get/camera/Richterswil/',
    '/api/Image/Zoom/camera/',
    '/api/Image/Zoom/camera/Richterswil/',
    '/api/Image/DemoSource/',
    '/api/Image/Get/',
    '/api/Referer/GetLayerImage/',
    '/api/',
    '/api/Webcam/',
    '/pictures/',
    '/pictures/Richterswil/',
  ];
  const PICTURE_NAME =
    /^\/pictures\/([^/?]+)\/\d{12}-(POOR|LOW|MEDIUM|HIGH|FULL)-[0-9a-f]{12}(-p[0-9a-f]{12}-[0-9a-f]{12})?\.(jpg|avif|webp)(\?e=\d+&s=[\w-]{32})?$/;

  it('answers every odd path below /api and /pictures without 5xx, and pictures only for real camera names', async () => {
    const known = new Set(
      (await p.call({ method: 'GET', path: '/api/Webcam/GetCameras' })).json.map((c: { name: string }) => c.name),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        fc.array(segment(), { minLength: 1, maxLength: 4 }),
        callers(),
        async (prefix, segments, [, caller]) => {
          const spec = { method: 'GET', path: `${prefix}${segments.join('/')}`, headers: authorization(caller) };
          const answer = check(await p.call(spec), spec, 'paths');
          expect(answer.text).not.toMatch(/root:.*:0:0:/);
          if (answer.status === 200 && (prefix.startsWith('/api/Image/') || prefix.startsWith('/pictures/'))) {
            expect(answer.headers['content-type']).toBe('image/jpeg');
            const camera = decodeURIComponent(spec.path.slice(prefix.length).split('/')[0] ?? '').replace(/\.jpg$/, '');
            expect(prefix.endsWith('Richterswil/') || (isValidCameraName(camera) && known.has(camera))).toBe(true);
          }
          // The picture URLs send a real camera's callers on to its picture's name, nowhere else.
          if (answer.status === 302) {
            expect(prefix.startsWith('/api/Image/Get/'), spec.path).toBe(true);
            const target = PICTURE_NAME.exec(String(answer.headers.location));
            expect(target, String(answer.headers.location)).not.toBeNull();
            expect(known.has(decodeURIComponent(target?.[1] ?? ''))).toBe(true);
          }
        },
      ),
      { numRuns: 900 },
    );
  }, 120_000);

  it('refuses request lines node:http would not even send', async () => {
    const lines = [
      Buffer.from(
        'GET /api/Image/Get/camera/Richter\x00swil.jpg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'latin1',
      ),
      Buffer.from('GET /api/Image/Get/camera/Zürich.jpg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'utf8'),
      Buffer.from('GET /api/Image/Get/camera/a b.jpg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from('GET /api/Image/Get/camera/../../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from('GET /api/Image/Get/camera/..\\..\\..\\etc\\passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from(
        `GET /api/Image/Get/camera/${'a'.repeat(100_000)}.jpg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ),
      Buffer.from('GET /api/Image/Get/camera/%ZZ.jpg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from('GET /pictures/../../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from('GET /pictures/Richterswil/..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from(
        'GET /pictures/Richter\x00swil/202611250500-POOR-0123456789ab.jpg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'latin1',
      ),
      Buffer.from('GET /..%2f..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      Buffer.from(
        'GET /api/News/News/news HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\x00b\r\nConnection: close\r\n\r\n',
        'latin1',
      ),
    ];
    for (const line of lines) {
      const answer = await sendRawRequest(p.url, line);
      tried.paths = (tried.paths ?? 0) + 1;
      // Refused with a 4xx, or the connection closed before any answer (status 0): never a 5xx or a picture.
      if (answer.status !== 0) expect(answer.status, line.toString('latin1').slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toMatch(/root:.*:0:0:/);
    }
  });
});

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('access tokens: expired, other key, alg none, tampered, garbage', () => {
  function signed(payload: object, privateKey: string, header: object = { alg: 'EdDSA', typ: 'JWT' }): string {
    const data = `${b64(header)}.${b64(payload)}`;
    return `${data}.${sign(null, Buffer.from(data), createPrivateKey(privateKey)).toString('base64url')}`;
  }

  function forgedTokens(): [string, string][] {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: p.admin.id, role: ['Admin'], name: 'securityadmin' };
    const otherKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const [head, , signature] = f.user.token.split('.');
    const hs256 = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, exp: now + 600 })}`;
    return [
      ['expired', signed({ ...claims, iat: now - 7200, exp: now - 3600 }, p.keys.privateKey)],
      ['not valid yet', signed({ ...claims, iat: now, nbf: now + 3600, exp: now + 7200 }, p.keys.privateKey)],
      ['signed with another key', signed({ ...claims, exp: now + 600 }, otherKey)],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: now + 600 })}.`],
      [
        'HS256 with the public key as secret',
        `${hs256}.${createHmac('sha256', p.keys.publicKey).update(hs256).digest('base64url')}`,
      ],
      [
        "a user's token with Admin put into its payload",
        `${head}.${b64({ sub: f.user.id, role: ['Admin'], exp: now + 600 })}.${signature}`,
      ],
      [
        "a user's token with another header",
        `${b64({ alg: 'HS256', typ: 'JWT' })}.${f.user.token.split('.').slice(1).join('.')}`,
      ],
      ["a user's token without its signature", f.user.token.split('.').slice(0, 2).join('.')],
      ["a user's token with a changed signature", `${f.user.token.slice(0, -4)}AAAA`],
      ['empty', ''],
      ['very long', 'a'.repeat(6000)],
    ];
  }

  const garbage = () =>
    fc.oneof(
      fc.string({ maxLength: 200 }).filter((t) => /^[\x21-\x7e]*$/.test(t)),
      fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((parts) => parts.join('.')),
      fc.jsonValue().map((value) => `${b64({ alg: 'EdDSA' })}.${b64(value)}.${b64('x')}`),
    );

  it('treats every forged or broken token as no token: 401 where a user is needed, never 5xx, nothing stored', async () => {
    // One prepared request per route; none of them may get through with a forged token.
    const admin: Actor = { role: 'admin', caller: p.admin, acting: p.admin, viaCookie: false };
    const requests: [string, RequestSpec, boolean, boolean][] = [];
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      const [method] = key.split(' ');
      if (access.rule === 'gateway' || access.rule === 'refresh-cookie') continue;
      if (access.rule === 'public' && !isSafeMethod(method ?? '')) continue;
      const spec = await access.build(m, admin);
      requests.push([key, spec, access.rule !== 'public', access.cookieAuth ?? false]);
    }
    const fixed = forgedTokens();
    const before = await snapshot(p);
    const token = fc.oneof(
      fc.constantFrom(...fixed).map(([, t]) => t),
      garbage(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...requests),
        token,
        fc.constantFrom('bearer', 'cookie', 'bearer+impersonate'),
        async ([key, spec, needsUser, cookieAuth], jwt, how) => {
          const headers: Record<string, string> = { ...spec.headers };
          if (how === 'cookie') headers.cookie = [headers.cookie, `${ACCESS_COOKIE}=${jwt}`].filter(Boolean).join('; ');
          else headers.authorization = `Bearer ${jwt}`;
          if (how === 'bearer+impersonate') headers.impersonate = f.user.id;
          const sent = { ...spec, headers };
          const answer = check(await p.call(sent), sent, 'tokens');
          // A stale token with Impersonate is 401, so the client refreshes (decisions.md).
          // An empty token is no token at all: anonymous (and Impersonate from anonymous is 403).
          const none = jwt.trim() === '';
          const mustBe401 = none
            ? needsUser && how !== 'bearer+impersonate'
            : how === 'bearer+impersonate' || (needsUser && (how === 'bearer' || cookieAuth));
          if (none && how === 'bearer+impersonate') expect(answer.status).toBe(403);
          if (mustBe401) {
            expect(answer.status, `${key} ${how}`).toBe(401);
          }
          if (!needsUser && !mustBe401 && !(none && how === 'bearer+impersonate')) {
            expect(answer.status, `${key} ${how}`).not.toBe(401);
          }
        },
      ),
      { numRuns: 900 },
    );
    expect(await snapshot(p)).toEqual(before);
    console.log(
      `[bad-input] tokens: ${requests.length} routes × ${fixed.length} forged kinds + generated garbage, by header, cookie and with Impersonate`,
    );
  }, 120_000);

  it('answers a correctly signed token of a user that does not exist without 5xx', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ghost = signed({ sub: randomUUID(), role: [], name: 'ghost', exp: now + 600 }, p.keys.privateKey);
    const admin: Actor = { role: 'admin', caller: p.admin, acting: p.admin, viaCookie: false };
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      if (access.rule !== 'user' && access.rule !== 'owner') continue;
      const spec = await access.build(m, admin);
      const sent = { ...spec, headers: { ...spec.headers, authorization: `Bearer ${ghost}` } };
      const answer = check(await p.call(sent), sent, 'tokens');
      expect(answer.status, key).not.toBe(401);
    }
  });
});

interface JsonSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  format?: string;
  contentEncoding?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const DATABASE_INTEGER = { min: -2_147_483_648, max: 2_147_483_647 };

/** Where a schema leaves a value without bounds: numbers need both (integers within PostgreSQL's), text a length. */
function unbounded(schema: JsonSchema, at: string): string[] {
  const problems = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((option) =>
    unbounded(option, at),
  );
  const fixed = schema.enum !== undefined || schema.const !== undefined;
  const { minimum = Number.NaN, maximum = Number.NaN } = schema;
  if (schema.type === 'integer' && !(minimum >= DATABASE_INTEGER.min && maximum <= DATABASE_INTEGER.max))
    problems.push(`${at}: an integer needs a minimum and maximum within PostgreSQL's integer`);
  if (schema.type === 'number' && (schema.minimum === undefined || schema.maximum === undefined))
    problems.push(`${at}: a number needs a minimum and maximum`);
  // A file's bytes are bounded by the upload's limit, not by a length of text.
  const file = schema.contentEncoding === 'binary' || schema.format === 'binary';
  if (schema.type === 'string' && !fixed && !file && schema.maxLength === undefined && schema.format !== 'uuid')
    problems.push(`${at}: text needs a maxLength (or a fixed set of values, or the uuid format)`);
  if (schema.type === 'array') {
    if (schema.maxItems === undefined) problems.push(`${at}: a list needs a maxItems`);
    if (schema.items) problems.push(...unbounded(schema.items, `${at}[]`));
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    problems.push(...unbounded(property, `${at}.${name}`));
  }
  return problems;
}

describe('request schemas: every number and text of every route has bounds', () => {
  it('declares integer ranges within PostgreSQL integer, number ranges, text lengths and list sizes', () => {
    const problems = requestSchemas.flatMap(([where, schema]) => unbounded(schema, where));
    console.log(`[bad-input] request schemas checked: ${requestSchemas.length}`);
    expect(requestSchemas.length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});

/** One value a valid request carries: in its query string, its JSON body or its form. */
interface Slot {
  where: 'query' | 'json' | 'form';
  /** Query parameter or form field name, or the path into the JSON body. */
  at: (string | number)[];
  value: unknown;
  /** A query parameter the route declares as a number. */
  numeric?: boolean;
}

function slotsOf(spec: RequestSpec): Slot[] {
  const query = new URLSearchParams(spec.path.split('?')[1] ?? '');
  const slots: Slot[] = [...query].map(([name, value]) => ({ where: 'query', at: [name], value }));
  const walk = (value: unknown, at: (string | number)[]) => {
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
    else slots.push({ where: 'json', at, value });
  };
  if (spec.json !== undefined) walk(spec.json, []);
  for (const part of spec.multipart ?? []) {
    if (part.file === undefined) slots.push({ where: 'form', at: [part.name], value: part.value ?? '' });
  }
  return slots;
}

/** The request with one value replaced. */
function withValue(spec: RequestSpec, slot: Slot, value: unknown): RequestSpec {
  const [path = '', search = ''] = spec.path.split('?');
  if (slot.where === 'query') {
    const query = new URLSearchParams(search);
    query.set(String(slot.at[0]), String(value));
    return { ...spec, path: `${path}?${query.toString().replaceAll('+', '%20')}` };
  }
  if (slot.where === 'form') {
    const multipart = (spec.multipart ?? []).map((part) =>
      part.name === slot.at[0] && !part.file ? { ...part, value: String(value) } : part,
    );
    return { ...spec, multipart };
  }
  const json = structuredClone(spec.json) as Record<string | number, unknown>;
  if (slot.at.length === 0) return { ...spec, json: value };
  let parent = json;
  for (const key of slot.at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[slot.at.at(-1) as string | number] = value;
  return { ...spec, json };
}

const beyondInteger = fc.bigInt({ min: 2n ** 31n, max: 10n ** 20n });
/** Characters that make a name read otherwise than it is stored. */
const invisible = fc.constantFrom(...HIDDEN_CHARACTERS);

/**
 * The same whole number as JavaScript would also read it: exponent, hexadecimal, octal, binary, sign, blanks,
 * a fraction of zero. A query string or path takes decimal digits only.
 */
function otherSpellings(digits: string): fc.Arbitrary<string> {
  const n = BigInt(digits);
  return fc.oneof(
    fc.constantFrom(
      `0x${n.toString(16)}`,
      `0X${n.toString(16).toUpperCase()}`,
      `0o${n.toString(8)}`,
      `0b${n.toString(2)}`,
      `+${digits}`,
      ` ${digits}`,
      `${digits} `,
      `${digits}.0`,
      `${digits}e0`,
      '1e309',
      '-1e309',
      'Infinity',
    ),
    fc.integer({ min: 1, max: 6 }).map((k) => `${digits}${'0'.repeat(k)}e-${k}`),
    fc.integer({ min: 1, max: 6 }).map((k) => `${digits}${'0'.repeat(k)}E-${k}`),
    fc.integer({ min: 1, max: 400 }).map((k) => `1e${k}`),
  );
}
const twoDigits = (min: number) => fc.integer({ min, max: 99 }).map((n) => String(n).padStart(2, '0'));

/** Values of the right kind that are still wrong (NUL, beyond integer, off the calendar), and values of another type. */
function spoiled(slot: Slot): fc.Arbitrary<[string, unknown]> {
  const { value } = slot;
  const options: fc.Arbitrary<[string, unknown]>[] = [];
  if (typeof value === 'string') {
    options.push(fc.nat(value.length).map((i) => ['NUL', `${value.slice(0, i)}\u0000${value.slice(i)}`]));
    if (/^\d+$/.test(value)) options.push(beyondInteger.map((n) => ['beyond integer', String(n)]));
    if (slot.numeric) options.push(otherSpellings(value).map((spelling) => ['not in decimal digits', spelling]));
    const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
    if (day) {
      options.push(
        twoDigits(13).map((month) => ['off the calendar', `${day.slice(0, 5)}${month}${day.slice(7)}`]),
        twoDigits(32).map((date) => ['off the calendar', `${day.slice(0, 8)}${date}`]),
        fc.tuple(twoDigits(24), twoDigits(60)).map(([h, min]) => ['off the clock', `${day}T${h}:${min}:00Z`]),
        fc.stringMatching(/^[a-z]{1,5}$/).map((tail) => ['trailing text', `${day}${tail}`]),
      );
    }
    if (slot.where === 'json') {
      options.push(
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([value])).map((v) => ['not text', v]),
      );
    }
    if (slot.where !== 'query' && /^(first|last|user)?name$/i.test(String(slot.at.at(-1)))) {
      options.push(
        fc
          .tuple(fc.nat(value.length), invisible)
          .map(([i, c]) => ['an invisible character', `${value.slice(0, i)}${c}${value.slice(i)}`]),
      );
    }
  } else if (typeof value === 'number') {
    options.push(beyondInteger.map((n) => ['beyond integer', Number(n)]));
    options.push(fc.oneof(fc.constant(String(value)), fc.boolean(), fc.constant(null)).map((v) => ['not a number', v]));
  }
  return fc.oneof(...options);
}

describe('valid requests with one value spoiled', () => {
  it('refuses NUL, ids beyond integer or not in decimal digits, dates off the calendar, invisible characters in names and values of another type, storing nothing', async () => {
    const admin: Actor = { role: 'admin', caller: p.admin, acting: p.admin, viaCookie: false };
    const requests: [string, RequestSpec, Slot[]][] = [];
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      if (access.rule === 'gateway' || access.rule === 'refresh-cookie') continue;
      const spec = await access.build(m, admin);
      const slots = slotsOf(spec)
        .filter((slot) => slot.value !== '' || slot.where !== 'query')
        .map((slot) => ({ ...slot, numeric: slot.where === 'query' && numericQuery.has(`${key} ${slot.at[0]}`) }));
      if (slots.length > 0) requests.push([key, spec, slots]);
    }
    expect(requests.some(([, , slots]) => slots.some((slot) => slot.numeric))).toBe(true);
    const before = await snapshot(p);
    const input = fc
      .constantFrom(...requests)
      .chain(([key, spec, slots]) =>
        fc.constantFrom(...slots).chain((slot) => spoiled(slot).map((bad) => [key, spec, slot, bad] as const)),
      );
    await fc.assert(
      fc.asyncProperty(input, async ([key, spec, slot, [what, value]]) => {
        const sent = withValue(spec, slot, value);
        const headers = { ...sent.headers, authorization: `Bearer ${p.admin.token}` };
        const answer = check(await p.call({ ...sent, headers }), sent, 'spoiled values');
        expect(
          answer.status,
          `${key} ${slot.where} ${slot.at.join('.')} ${what}: ${answer.text}`,
        ).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 800 },
    );
    console.log(
      `[bad-input] spoiled values: ${requests.length} routes, ${requests.flatMap((r) => r[2]).length} values`,
    );
    expect(await snapshot(p)).toEqual(before);
  }, 180_000);
});

// Last: an accepted random request may change what the earlier properties rely on.
describe('random bodies', () => {
  it('random bodies and query strings on every other route', async () => {
    const before = await snapshot(p);
    const accepted: string[] = [];
    const routes = apiRoutes((method) => !isSafeMethod(method));
    const input = fc.constantFrom(...routes).chain((route) => {
      const shape = shapes.get(`${route.method} ${route.url}`) ?? { query: [], body: [] };
      return fc.tuple(fc.constant(route), queryArbitrary(shape.query), bodyArbitrary(shape.body));
    });
    await fc.assert(
      fc.asyncProperty(input, callers(), async ([route, query, body], [who, caller]) => {
        const spec: RequestSpec = {
          method: route.method,
          path: `${concretePath(route.url)}${query}`,
          headers: authorization(caller),
          ...(body && 'json' in body ? { json: body.json } : body ? { raw: body } : {}),
        };
        const answer = check(await p.call(spec), spec, 'bodies');
        if (answer.status < 300) accepted.push(`${who} ${spec.method} ${spec.path.slice(0, 120)}`);
      }),
      { numRuns: 1500 },
    );
    console.log(
      `[bad-input] random bodies accepted as valid: ${accepted.length}${accepted.length ? `: ${accepted.slice(0, 10).join('; ')}` : ''}`,
    );
    // Refused requests store nothing: any change must come from an accepted one.
    if (accepted.length === 0) expect(await snapshot(p)).toEqual(before);
  }, 120_000);
});
