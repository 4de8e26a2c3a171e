import type { CameraSource } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '@lakecams/svc-imaging/testing';
import { createSigner } from 'fast-jwt';
import { sql } from 'kysely';
import { createServer } from 'node:net';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTick } from '../src/capture/capture-tick.ts';
import { startDigestCamera, startMjpegCamera } from './camera-servers.ts';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };
const LOGIN = { username: 'hafenwart', password: 'Seeblick-Pw-93517' };

/** A port on which nothing listens: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a camera's source: login kept apart from its URL, HTTP pushes, and the connection test", () => {
  let service: ImagingTestService;
  let camera: Awaited<ReturnType<typeof startDigestCamera>>;
  let picture: Buffer;
  const logged: string[] = [];
  /** Everything svc-imaging tells the others: its events. */
  const published: string[] = [];
  /** Every secret the tests saw: none may appear in a log line, an event or a job record. */
  const secrets = [LOGIN.password];

  beforeAll(async () => {
    picture = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#2f6f8f' } })
      .jpeg()
      .toBuffer();
    camera = await startDigestCamera(picture, LOGIN);
    service = await buildImagingService({
      keys,
      logger: pino({ level: 'debug' }, { write: (line: string) => logged.push(line) }),
      options: {
        fetchLimits: { timeoutMs: 5_000, maxBytes: 5 * 1024 * 1024, retries: 0 },
        cameraSecretKey: 'test-camera-secret-key-0123456789',
      },
    });
    await service.bus.follow('imaging.>', (message) => {
      published.push(JSON.stringify(message.data));
    });
  });

  afterAll(async () => {
    await service?.close();
    await camera?.close();
  });

  const source = (webcamId: number) =>
    service.app.inject({ url: `/api/Image/Source?webcamId=${webcamId}`, headers: admin });
  const setSource = (webcamId: number, body: object) =>
    service.app.inject({ method: 'PUT', url: `/api/Image/Source?webcamId=${webcamId}`, headers: admin, payload: body });

  it('captures a Digest camera with the login from the dialog, never sends the password back, keeps it sealed', async () => {
    const row = await service.upsertCamera({ id: 11, name: 'Hafen-Digest', pattern: camera.url() });
    const saved = await setSource(11, { kind: 'http', ...LOGIN });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<CameraSource>()).toMatchObject({ kind: 'http', username: LOGIN.username, passwordSet: true });
    expect(saved.body).not.toContain(LOGIN.password);
    expect((await source(11)).body).not.toContain(LOGIN.password);
    // At rest: sealed, not the password.
    const stored = await sql<{
      sealed: string;
    }>`select login_password_sealed as sealed from camera_sources where webcam_id = 11`.execute(service.db);
    expect(stored.rows[0]?.sealed).toMatch(/^v1:/);
    expect(stored.rows[0]?.sealed).not.toContain(LOGIN.password);

    const captured = await captureTick(imagingPartsOf(service.app).capture.context, row, new Date());
    expect(captured.outcome).toBe('captured');
    // Left out, the password stays; the user name alone can change.
    await setSource(11, { kind: 'http', username: LOGIN.username });
    expect((await source(11)).json<CameraSource>().passwordSet).toBe(true);
    expect(
      (await captureTick(imagingPartsOf(service.app).capture.context, row, new Date(Date.now() + 300_000))).outcome,
    ).toBe('captured');
    // An empty password removes it: the camera then refuses.
    await setSource(11, { kind: 'http', username: LOGIN.username, password: '' });
    const refused = await captureTick(imagingPartsOf(service.app).capture.context, row, new Date(Date.now() + 600_000));
    expect(refused).toMatchObject({ outcome: 'failed', error: 'Camera refused the login (Digest)' });
  });

  it('tests a connection now: the picture with its size and time, or exactly why not', async () => {
    const test = async (body: object) =>
      (
        await service.app.inject({ method: 'POST', url: '/api/Image/Source/Test', headers: admin, payload: body })
      ).json();
    const ok = await test({ kind: 'http', url: camera.url(), ...LOGIN });
    expect(ok).toMatchObject({ ok: true, width: 1280, height: 720, bytes: picture.length });
    expect(ok.preview).toMatch(/^data:image\/jpeg;base64,/);
    expect(await test({ kind: 'http', url: camera.url(), username: LOGIN.username, password: 'falsch' })).toMatchObject(
      {
        ok: false,
        reason: 'login',
        message: 'Camera refused the login (Digest)',
      },
    );
    expect(await test({ kind: 'http', url: camera.url() })).toMatchObject({
      ok: false,
      reason: 'login',
      message: 'Camera asks for a login (Digest) and none is set',
    });
    expect(await test({ kind: 'http', url: `http://127.0.0.1:${await closedPort()}/bild.jpg` })).toMatchObject({
      ok: false,
      reason: 'refused',
    });
    expect(await test({ kind: 'http', url: 'http://kamera.invalid/bild.jpg' })).toMatchObject({
      ok: false,
      reason: 'dns',
    });
    // The stored password is used when the dialog leaves it out.
    await service.upsertCamera({ id: 12, name: 'Hafen-Test', pattern: camera.url() });
    await setSource(12, { kind: 'http', ...LOGIN });
    const stored = await service.app.inject({
      method: 'POST',
      url: '/api/Image/Source/Test?webcamId=12',
      headers: admin,
      payload: { kind: 'http', url: camera.url(), username: LOGIN.username },
    });
    expect(stored.json()).toMatchObject({ ok: true });
  });

  it('takes pictures pushed by HTTP with the camera’s secret only, timed by their EXIF capture time', async () => {
    const row = await service.upsertCamera({ id: 13, name: 'Steg-Push', pattern: camera.url(), intervalMin: 5 });
    await setSource(13, { kind: 'push' });
    const made = await service.app.inject({
      method: 'POST',
      url: '/api/Image/Source/PushSecret?webcamId=13',
      headers: admin,
    });
    const { secret, path } = made.json<{ secret: string; path: string }>();
    secrets.push(secret);
    expect(path).toBe('/api/Image/Push/camera/Steg-Push.jpg');
    expect((await source(13)).json<CameraSource>().push.secretSet).toBe(true);
    expect((await source(13)).body).not.toContain(secret);

    // Taken four minutes ago (Zurich time, no zone in the EXIF): its slot's picture.
    const taken = new Date(Date.now() - 4 * 60_000);
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Zurich',
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(taken);
    const exifTime = local.replaceAll('-', ':');
    const pushed = await sharp(picture)
      .withExif({ IFD2: { DateTimeOriginal: exifTime } })
      .jpeg()
      .toBuffer();
    const put = (body: Buffer, headers: Record<string, string>) =>
      service.app.inject({
        method: 'PUT',
        url: path,
        payload: body,
        headers: { 'content-type': 'image/jpeg', ...headers },
      });

    expect((await put(pushed, {})).statusCode).toBe(401);
    expect((await put(pushed, { authorization: 'Bearer falsch' })).statusCode).toBe(401);
    const accepted = await put(pushed, { authorization: `Bearer ${secret}` });
    expect(accepted.statusCode).toBe(201);
    const minute = taken.getTime() - (taken.getTime() % 60_000);
    const slotStart = new Date(minute - (new Date(minute).getUTCMinutes() % 5) * 60_000);
    const expectedName = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Zurich',
      dateStyle: 'short',
      timeStyle: 'short',
    })
      .format(slotStart)
      .replace(/\D/g, '');
    expect(accepted.json()).toEqual({ name: expectedName });
    // No Content-Type at all, as `curl -T` sends it: the bytes decide.
    const bare = await service.app.inject({
      method: 'PUT',
      url: path,
      payload: pushed,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect([bare.statusCode, bare.body]).toEqual([201, expect.any(String)]);
    // A type that names something else is refused.
    const text = await put(pushed, { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    // Basic with the camera's name as user, as many cameras send it.
    const basic = Buffer.from(`Steg-Push:${secret}`).toString('base64');
    expect((await put(pushed, { authorization: `Basic ${basic}` })).statusCode).toBe(201);
    // Not a picture: refused, nothing recorded.
    expect((await put(Buffer.from('kein Bild'), { authorization: `Bearer ${secret}` })).json()).toMatchObject({
      statusCode: 400,
      message: 'The file is not an image',
    });
    expect((await source(13)).json<CameraSource>().lastUpload).toMatchObject({ name: expectedName, via: 'push' });
    // A rotated secret: the old one stops working.
    await service.app.inject({ method: 'POST', url: '/api/Image/Source/PushSecret?webcamId=13', headers: admin });
    expect((await put(pushed, { authorization: `Bearer ${secret}` })).statusCode).toBe(401);
    // A pushing camera is not fetched.
    const fetched = await captureTick(
      imagingPartsOf(service.app).capture.context,
      row,
      new Date(Date.now() + 3_600_000),
    );
    expect(fetched).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/sends its pictures itself/) });
    expect(logged.join('\n')).toContain('picture push refused');
  });

  it('captures a camera that only streams (MJPEG over HTTP) one frame per tick, and tests it as a stream', async () => {
    const part = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#5a8f3c' } })
      .jpeg()
      .toBuffer();
    const stream = await startMjpegCamera(part);
    try {
      const row = await service.upsertCamera({ id: 14, name: 'Hafen-Stream', pattern: stream.url });
      await setSource(14, { kind: 'stream', transport: 'tcp' });
      expect((await captureTick(imagingPartsOf(service.app).capture.context, row, new Date())).outcome).toBe(
        'captured',
      );
      expect(await imagingPartsOf(service.app).captures.latest(14)).toMatchObject({ width: 640, height: 360 });
      const tested = await service.app.inject({
        method: 'POST',
        url: '/api/Image/Source/Test?webcamId=14',
        headers: admin,
        payload: { kind: 'stream', url: stream.url },
      });
      expect(tested.json()).toMatchObject({ ok: true, width: 640, height: 360 });
    } finally {
      await stream.close();
    }
  }, 60_000);

  it('refuses a source without admin rights; no password or secret in a log line, an event or a job record', async () => {
    const user = { authorization: `Bearer ${sign({ sub: '22222222-2222-4222-8222-222222222222', role: [] })}` };
    expect((await service.app.inject({ url: '/api/Image/Source?webcamId=11', headers: user })).statusCode).toBe(403);
    expect((await service.app.inject({ url: '/api/Image/Source?webcamId=11' })).statusCode).toBe(401);
    expect((await source(999)).statusCode).toBe(404);
    expect((await setSource(11, { kind: 'telepathy' })).statusCode).toBe(400);
    const jobRecords = await sql<{ error: string | null }>`select error from captures`.execute(service.db);
    const everything = [...logged, ...published, ...jobRecords.rows.map((row) => row.error ?? '')].join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(published.length).toBeGreaterThan(0);
  });

  it('says so, 400 and no 500, when a stored password was sealed under another CAMERA_SECRET_KEY', async () => {
    // Camera 12's password was sealed above under the first key.
    await service.restart({ cameraSecretKey: 'another-camera-secret-key-98765' });
    const tested = await service.app.inject({
      method: 'POST',
      url: '/api/Image/Source/Test?webcamId=12',
      headers: admin,
      payload: { kind: 'http', url: camera.url(), username: LOGIN.username },
    });
    expect([tested.statusCode, tested.json().message]).toEqual([
      400,
      "The camera's stored password cannot be opened with this portal's CAMERA_SECRET_KEY; enter it again",
    ]);
    const row = await imagingPartsOf(service.app).cameraDirectory.byId(12);
    if (!row) throw new Error('camera 12 is gone');
    const captured = await captureTick(
      imagingPartsOf(service.app).capture.context,
      row,
      new Date(Date.now() + 7_200_000),
    );
    expect(captured).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/cannot be opened/) });
  });
});
