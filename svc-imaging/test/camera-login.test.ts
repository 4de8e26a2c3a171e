import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchCameraImage } from '../src/capture/camera-fetch.ts';
import { withoutUrlLogins } from '../src/capture/camera-login.ts';

const PICTURE = Buffer.from('a camera picture');
const AT = new Date('2026-07-01T10:05:00Z');
/** One attempt: a refused login must not be tried again anyway, and no test waits for a backoff. */
const LIMITS = { timeoutMs: 5_000, maxBytes: 1024 * 1024, retries: 0 };

interface CameraServer {
  origin: string;
  /** The Authorization header of every request, in order (undefined: none sent). */
  authorizations: (string | undefined)[];
}

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of running.splice(0)) await close();
});

/** A camera on real HTTP; `handle` answers each request, given how many came before it. */
async function startCamera(
  handle: (request: IncomingMessage, response: ServerResponse, seen: number) => void,
): Promise<CameraServer> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    handle(request, response, authorizations.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, authorizations };
}

function refuse(response: ServerResponse, challenges: string[]) {
  response.writeHead(401, { 'www-authenticate': challenges, 'content-type': 'text/plain' });
  response.end('login needed');
}

function deliver(response: ServerResponse) {
  response.writeHead(200, { 'content-type': 'image/jpeg' });
  response.end(PICTURE);
}

/** `Digest a="b", c=d` → { a: 'b', c: 'd' }, read independently of the code under test. */
function digestFields(header: string): Record<string, string> {
  expect(header.startsWith('Digest ')).toBe(true);
  const fields: Record<string, string> = {};
  for (const [, key, quoted, plain] of header.slice(7).matchAll(/([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g))
    fields[key as string] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (plain as string);
  return fields;
}

/** RFC 7616's response, computed here with node:crypto from the known password. */
function expectedDigest(
  fields: Record<string, string>,
  login: { username: string; password: string; realm: string; algorithm: 'md5' | 'sha256' },
) {
  const h = (text: string) => createHash(login.algorithm).update(text).digest('hex');
  const ha1 = h(`${login.username}:${login.realm}:${login.password}`);
  const ha2 = h(`GET:${fields.uri}`);
  return fields.qop
    ? h(`${ha1}:${fields.nonce}:${fields.nc}:${fields.cnonce}:${fields.qop}:${ha2}`)
    : h(`${ha1}:${fields.nonce}:${ha2}`);
}

/** A camera that asks Digest and delivers once the answer is right for `username`/`password`. */
async function startDigestCamera(
  challenges: string[],
  login: { username: string; password: string; realm: string; algorithm: 'md5' | 'sha256' },
) {
  return startCamera((request, response) => {
    const header = request.headers.authorization;
    if (header?.startsWith('Digest ')) {
      const fields = digestFields(header);
      if (fields.username === login.username && fields.response === expectedDigest(fields, login))
        return deliver(response);
    }
    refuse(response, challenges);
  });
}

describe('a camera behind a login', () => {
  it('answers a Digest challenge (MD5, qop=auth) with the URL login, after a first request without credentials', async () => {
    const camera = await startDigestCamera(
      [
        'Digest realm="Seekamera", qop="auth,auth-int", nonce="dcd98b7102dd2f0e", opaque="5ccc069c403ebaf9", algorithm=MD5',
      ],
      { username: 'kamera', password: 'secret', realm: 'Seekamera', algorithm: 'md5' },
    );
    const url = `${camera.origin.replace('//', '//kamera:secret@')}/snap.jpg?channel=1&size=big`;
    expect(await fetchCameraImage(url, AT, LIMITS)).toEqual(PICTURE);
    expect(camera.authorizations).toHaveLength(2);
    expect(camera.authorizations[0]).toBeUndefined();
    const fields = digestFields(camera.authorizations[1] as string);
    expect(fields).toMatchObject({
      username: 'kamera',
      realm: 'Seekamera',
      nonce: 'dcd98b7102dd2f0e',
      uri: '/snap.jpg?channel=1&size=big',
      qop: 'auth',
      nc: '00000001',
      opaque: '5ccc069c403ebaf9',
      algorithm: 'MD5',
    });
    expect(fields.cnonce).toMatch(/^[0-9a-f]{16,}$/);
    expect(fields.response).toBe(
      expectedDigest(fields, { username: 'kamera', password: 'secret', realm: 'Seekamera', algorithm: 'md5' }),
    );
  });

  it('prefers SHA-256 when the camera offers it beside MD5', async () => {
    const camera = await startDigestCamera(
      [
        'Digest realm="cam@lake", qop="auth", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"',
        'Digest realm="cam@lake", qop="auth", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"',
      ],
      { username: 'Mufasa', password: 'Circle of Life', realm: 'cam@lake', algorithm: 'sha256' },
    );
    const url = `${camera.origin.replace('//', '//Mufasa:Circle%20of%20Life@')}/dir/index.jpg`;
    expect(await fetchCameraImage(url, AT, LIMITS)).toEqual(PICTURE);
    expect(digestFields(camera.authorizations[1] as string)).toMatchObject({ algorithm: 'SHA-256', realm: 'cam@lake' });
  });

  it('answers SHA-256-sess with a hashed username when the camera asks for userhash', async () => {
    const h = (text: string) => createHash('sha256').update(text).digest('hex');
    const camera = await startCamera((request, response) => {
      const header = request.headers.authorization;
      if (header?.startsWith('Digest ')) {
        const f = digestFields(header);
        const ha1 = h(`${h('kamera:sess:secret')}:${f.nonce}:${f.cnonce}`);
        const expected = h(`${ha1}:${f.nonce}:${f.nc}:${f.cnonce}:auth:${h(`GET:${f.uri}`)}`);
        if (f.username === h('kamera:sess') && f.userhash === 'true' && f.response === expected)
          return deliver(response);
      }
      refuse(response, ['Digest realm="sess", qop="auth", algorithm=SHA-256-sess, nonce="n0", userhash=true']);
    });
    const url = `${camera.origin.replace('//', '//kamera:secret@')}/x.jpg`;
    expect(await fetchCameraImage(url, AT, LIMITS)).toEqual(PICTURE);
  });

  it('answers the legacy Digest without qop (RFC 2069) without nc and cnonce', async () => {
    const camera = await startDigestCamera(['Digest realm="alt", nonce="abc123"'], {
      username: 'admin',
      password: 'secret',
      realm: 'alt',
      algorithm: 'md5',
    });
    expect(await fetchCameraImage(`${camera.origin.replace('//', '//admin:secret@')}/x.jpg`, AT, LIMITS)).toEqual(
      PICTURE,
    );
    const fields = digestFields(camera.authorizations[1] as string);
    expect(fields).not.toHaveProperty('qop');
    expect(fields).not.toHaveProperty('nc');
    expect(fields).not.toHaveProperty('cnonce');
    expect(fields.uri).toBe('/x.jpg');
  });

  it('answers again with the new nonce when the camera says the old one is stale', async () => {
    const realm = 'stale';
    const check = (header: string | undefined, nonce: string) => {
      if (!header?.startsWith('Digest ')) return false;
      const fields = digestFields(header);
      const login = { username: 'u', password: 'secret', realm, algorithm: 'md5' } as const;
      return fields.nonce === nonce && fields.response === expectedDigest(fields, login);
    };
    const camera = await startCamera((request, response, seen) => {
      if (seen === 0) return refuse(response, [`Digest realm="${realm}", qop="auth", nonce="old"`]);
      if (check(request.headers.authorization, 'old'))
        return refuse(response, [`Digest realm="${realm}", qop="auth", nonce="new", stale=true`]);
      if (check(request.headers.authorization, 'new')) return deliver(response);
      refuse(response, [`Digest realm="${realm}", qop="auth", nonce="other"`]);
    });
    expect(await fetchCameraImage(`${camera.origin.replace('//', '//u:secret@')}/x.jpg`, AT, LIMITS)).toEqual(PICTURE);
    expect(camera.authorizations).toHaveLength(3);
  });

  it('answers a Basic challenge with Basic, the URL login percent-decoded', async () => {
    const camera = await startCamera((request, response) => {
      const expected = `Basic ${Buffer.from('kamera@see:geh:eim ö').toString('base64')}`;
      if (request.headers.authorization === expected) return deliver(response);
      refuse(response, ['Basic realm="IP Camera"']);
    });
    const url = `${camera.origin.replace('//', '//kamera%40see:geh%3Aeim%20%C3%B6@')}/snap.jpg`;
    expect(await fetchCameraImage(url, AT, LIMITS)).toEqual(PICTURE);
    expect(camera.authorizations[0]).toBeUndefined();
  });

  it('takes the login handed in separately from the URL', async () => {
    const camera = await startDigestCamera(['Digest realm="r", qop="auth", nonce="n"'], {
      username: 'separate',
      password: 'secret',
      realm: 'r',
      algorithm: 'md5',
    });
    const picture = await fetchCameraImage(`${camera.origin}/x.jpg`, AT, LIMITS, {
      username: 'separate',
      password: 'secret',
    });
    expect(picture).toEqual(PICTURE);
  });

  it('says which login the camera refused, without the password, and does not try it again', async () => {
    const camera = await startDigestCamera(['Digest realm="r", qop="auth", nonce="n"'], {
      username: 'kamera',
      password: 'right',
      realm: 'r',
      algorithm: 'md5',
    });
    const failure = fetchCameraImage(`${camera.origin.replace('//', '//kamera:secret@')}/x.jpg`, AT, {
      ...LIMITS,
      retries: 2,
    });
    await expect(failure).rejects.toThrow('Camera refused the login (Digest)');
    expect(camera.authorizations).toHaveLength(2);
    const basic = await startCamera((_request, response) => refuse(response, ['Basic realm="cam"']));
    await expect(
      fetchCameraImage(`${basic.origin.replace('//', '//kamera:secret@')}/x.jpg`, AT, LIMITS),
    ).rejects.toThrow('Camera refused the login (Basic)');
    await expect(fetchCameraImage(`${basic.origin}/x.jpg`, AT, LIMITS)).rejects.toThrow(
      'Camera asks for a login (Basic) and none is set',
    );
  });

  it("sends the login only to the camera URL's own origin, never along a redirect to another", async () => {
    const elsewhere = await startCamera((_request, response) => deliver(response));
    const camera = await startCamera((request, response) => {
      if (request.headers.authorization !== `Basic ${Buffer.from('u:secret').toString('base64')}`)
        return refuse(response, ['Basic realm="cam"']);
      if (request.url === '/moved.jpg') {
        response.writeHead(302, { location: '/here.jpg' });
        return response.end();
      }
      if (request.url === '/here.jpg') {
        response.writeHead(307, { location: `${elsewhere.origin.replace('//', '//u:secret@')}/there.jpg` });
        return response.end();
      }
      response.writeHead(404);
      response.end();
    });
    const url = `${camera.origin.replace('//', '//u:secret@')}/moved.jpg`;
    expect(await fetchCameraImage(url, AT, LIMITS)).toEqual(PICTURE);
    // First without, then the answer to the challenge; the same origin after the redirect gets it at once.
    expect(camera.authorizations.map(Boolean)).toEqual([false, true, true]);
    expect(elsewhere.authorizations).toEqual([undefined]);
  });
});

describe('logins in texts', () => {
  it('are taken out of every URL, whatever the scheme and wherever the URL stands', () => {
    expect(
      withoutUrlLogins(
        'Request cannot be constructed from a URL that includes credentials: https://user:secret@cams.example.org/x.jpg',
      ),
    ).toBe('Request cannot be constructed from a URL that includes credentials: https://cams.example.org/x.jpg');
    expect(withoutUrlLogins('a "http://u:p@ss@h:81/a?b=c@d" and rtsp://only-user@cam/s, ftp://x@y')).toBe(
      'a "http://h:81/a?b=c@d" and rtsp://cam/s, ftp://y',
    );
    expect(withoutUrlLogins('https://cam.example.org/a@b and mail@example.org')).toBe(
      'https://cam.example.org/a@b and mail@example.org',
    );
  });
});
