import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

const REALM = 'Hafenkamera';
const NONCE = '5e3f0c1b9a7d';

/** An IP camera that asks Digest (MD5, qop=auth) and delivers a JPEG to `kamera` with the password `secret` (or `login`). */
export async function startDigestCamera(picture: Buffer, login = { username: 'kamera', password: 'secret' }) {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const server: Server = createServer((request, response) => {
    const fields = Object.fromEntries(
      [...(request.headers.authorization ?? '').matchAll(/(\w+)="?([^",]*)"?/g)].map(([, k, v]) => [k, v]),
    );
    const ha1 = md5(`${login.username}:${REALM}:${login.password}`);
    const ha2 = md5(`GET:${fields.uri}`);
    const expected = md5(`${ha1}:${NONCE}:${fields.nc}:${fields.cnonce}:auth:${ha2}`);
    if (fields.username === login.username && fields.response === expected) {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      return response.end(picture);
    }
    response.writeHead(401, { 'www-authenticate': `Digest realm="${REALM}", qop="auth", nonce="${NONCE}"` });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    /** The camera's URL with a login in it. */
    url: (userInfo?: string) => `http://${userInfo ? `${userInfo}@` : ''}127.0.0.1:${port}/snapshot.jpg`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A camera that streams MJPEG over HTTP (multipart/x-mixed-replace), a part every 100 ms, without a login. */
export async function startMjpegCamera(part: Buffer) {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
    const send = () =>
      response.write(
        Buffer.concat([Buffer.from('--frame\r\nContent-Type: image/jpeg\r\n\r\n'), part, Buffer.from('\r\n')]),
      );
    send();
    const timer = setInterval(send, 100);
    response.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/video.mjpg`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
