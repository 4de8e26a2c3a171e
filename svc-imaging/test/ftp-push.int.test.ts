import type { CameraSource } from '@lakecams/contracts';
import { ADMIN_ROLE, generateSigningKeys } from '@lakecams/service-kit';
import { buildImagingService, imagingPartsOf, type ImagingTestService } from '@lakecams/svc-imaging/testing';
import { Client } from 'basic-ftp';
import { createSigner } from 'fast-jwt';
import { Readable } from 'node:stream';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const keys = generateSigningKeys();
const sign = createSigner({ key: keys.privateKey, algorithm: 'EdDSA', expiresIn: 600_000 });
const admin = { authorization: `Bearer ${sign({ sub: '11111111-1111-4111-8111-111111111111', role: [ADMIN_ROLE] })}` };

/** A camera's FTP upload, as its firmware makes it: log in, a dated folder, a temporary name renamed to .jpg. */
async function upload(port: number, user: string, password: string, picture: Buffer): Promise<void> {
  const client = new Client(10_000);
  try {
    await client.access({ host: '127.0.0.1', port, user, password });
    await client.ensureDir('/2026/11/27');
    await client.uploadFrom(Readable.from([picture]), 'bild.jpg.part');
    await client.rename('bild.jpg.part', 'bild.jpg');
  } finally {
    client.close();
  }
}

describe('a camera that pushes by FTP to svc-imaging', () => {
  let service: ImagingTestService;
  let port: number;
  const logged: string[] = [];

  beforeAll(async () => {
    service = await buildImagingService({
      keys,
      logger: pino({ level: 'debug' }, { write: (line: string) => logged.push(line) }),
      options: {
        cameraSecretKey: 'test-camera-secret-key-0123456789',
        ftp: { host: '127.0.0.1', port: 0, passivePorts: { min: 0, max: 0 } },
      },
    });
    port = imagingPartsOf(service.app).ftp.port() as number;
  });

  afterAll(async () => {
    await service?.close();
  });

  it('takes an upload with the account from the dialog as a capture, and refuses the wrong password', async () => {
    await service.upsertCamera({ id: 21, name: 'Seeufer-FTP', intervalMin: 10 });
    const put = await service.app.inject({
      method: 'PUT',
      url: '/api/Image/Source?webcamId=21',
      headers: admin,
      payload: { kind: 'ftp' },
    });
    expect(put.statusCode).toBe(200);
    const made = await service.app.inject({
      method: 'POST',
      url: '/api/Image/Source/FtpPassword?webcamId=21',
      headers: admin,
    });
    const account = made.json<{ user: string; password: string }>();
    expect(account.user).toBe('Seeufer-FTP');
    const source = await service.app.inject({ url: '/api/Image/Source?webcamId=21', headers: admin });
    expect(source.json<CameraSource>().ftp).toMatchObject({ user: 'Seeufer-FTP', passwordSet: true });
    expect(source.body).not.toContain(account.password);

    const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3b7bbf' } })
      .jpeg()
      .toBuffer();
    await expect(upload(port, account.user, 'falsch', picture)).rejects.toThrow(/530/);
    await upload(port, account.user, account.password, picture);
    const latest = await imagingPartsOf(service.app).captures.latest(21);
    expect(latest).toMatchObject({ width: 1600, height: 900 });
    const after = (
      await service.app.inject({ url: '/api/Image/Source?webcamId=21', headers: admin })
    ).json<CameraSource>();
    expect(after.lastUpload).toMatchObject({ name: latest?.name, via: 'ftp' });
    // A new password: the old one no longer logs in.
    await service.app.inject({ method: 'POST', url: '/api/Image/Source/FtpPassword?webcamId=21', headers: admin });
    await expect(upload(port, account.user, account.password, picture)).rejects.toThrow(/530/);
    expect(logged.join('\n')).not.toContain(account.password);
  });

  it('refuses the account of a camera that is no longer set to FTP', async () => {
    await service.upsertCamera({ id: 22, name: 'Hafen-FTP', intervalMin: 10 });
    await service.app.inject({
      method: 'PUT',
      url: '/api/Image/Source?webcamId=22',
      headers: admin,
      payload: { kind: 'ftp' },
    });
    const made = await service.app.inject({
      method: 'POST',
      url: '/api/Image/Source/FtpPassword?webcamId=22',
      headers: admin,
    });
    const account = made.json<{ user: string; password: string }>();
    await service.app.inject({
      method: 'PUT',
      url: '/api/Image/Source?webcamId=22',
      headers: admin,
      payload: { kind: 'http' },
    });
    const picture = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    await expect(upload(port, account.user, account.password, picture)).rejects.toThrow(/530/);
  });
});
