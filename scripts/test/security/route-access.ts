import { ACCESS_COOKIE, imageNameOf, PICTURE_PATH_PREFIX, REFRESH_COOKIE } from '@lakecams/contracts';
import { linkIn, readOutbox } from '../../../e2e/mail-outbox.ts';
import { solveCaptcha } from '@lakecams/svc-identity/testing';
import { type Answer, isSafeMethod, queryString, type RequestSpec, setCookieValue } from './http.ts';
import {
  type Account,
  createCamera,
  eventually,
  expectOk,
  type Fixtures,
  layerUpload,
  type SecurityPortal,
  testJpeg,
  testPng,
} from './security-portal.ts';

/** `yyyyMMddHHmm` → `yyyy-MM-dd`. */
const isoDayOf = (imageName: string) => `${imageName.slice(0, 4)}-${imageName.slice(4, 6)}-${imageName.slice(6, 8)}`;

/**
 * Who may call a route:
 * - public: everybody;
 * - user: any signed-in user (401 anonymous), acting on the acting user's own data;
 * - admin: the Admin role (401 anonymous, 403 otherwise);
 * - owner: any signed-in user, but only on objects of the acting user's pages (403 on another's);
 * - refresh-cookie: authenticated by the refresh cookie itself (401 without it);
 * - gateway: the gateway's own public route (no service behind it, so no auth plugin and no Impersonate rule).
 */
export type AccessRule = 'public' | 'user' | 'admin' | 'owner' | 'refresh-cookie' | 'gateway';

export const ROLES = [
  'anonymous',
  'user',
  'referer',
  'admin',
  'adminAsReferer',
  'userImpersonating',
  'anonymousImpersonating',
] as const;
export type Role = (typeof ROLES)[number];

/** Who sends the request (token holder) and whose rights apply (the acting user). */
export interface Actor {
  role: Role;
  /** The account whose token is sent (none: anonymous). */
  caller: Account | null;
  /** The user acted as: the caller, or the impersonated user. */
  acting: Account | null;
  /** The access token travels as the httpOnly cookie instead of the bearer header. */
  viaCookie: boolean;
}

export interface MatrixContext {
  p: SecurityPortal;
  f: Fixtures;
  /** A fresh number for unique names. */
  next(): number;
  /** Objects created for delete routes, reused until a delete succeeds. */
  victims: Map<string, unknown>;
  news: string;
}

/** A portal with its fixtures, ready for the route table's requests. */
export async function createMatrixContext(p: SecurityPortal, f: Fixtures): Promise<MatrixContext> {
  let counter = 0;
  return {
    p,
    f,
    next: () => ++counter,
    victims: new Map(),
    news: (await p.call({ method: 'GET', path: '/api/News/News/news' })).text,
  };
}

/** The caller and acting user of a role, with the fixtures' accounts. */
export function actorOf({ p, f }: MatrixContext, role: Role, viaCookie = false): Actor {
  switch (role) {
    case 'anonymous':
    case 'anonymousImpersonating':
      return { role, caller: null, acting: null, viaCookie };
    case 'user':
    case 'userImpersonating':
      return { role, caller: f.user, acting: role === 'user' ? f.user : null, viaCookie };
    case 'referer':
      return { role, caller: f.referer, acting: f.referer, viaCookie };
    case 'admin':
      return { role, caller: p.admin, acting: p.admin, viaCookie };
    case 'adminAsReferer':
      return { role, caller: p.admin, acting: f.referer, viaCookie };
  }
}

/** The request as `actor` sends it: bearer header or access cookie, and the Impersonate header of its role. */
export function authorize({ p, f }: MatrixContext, spec: RequestSpec, actor: Actor): RequestSpec {
  const headers: Record<string, string> = { ...spec.headers };
  const caller = actor.caller && ((spec as Prepared).session ?? actor.caller);
  if (caller && actor.viaCookie) {
    headers.cookie = [headers.cookie, `${ACCESS_COOKIE}=${caller.accessCookie}`].filter(Boolean).join('; ');
  } else if (caller) {
    headers.authorization = `Bearer ${caller.token}`;
  }
  if (actor.role === 'adminAsReferer') headers.impersonate = f.referer.id;
  if (actor.role === 'userImpersonating' || actor.role === 'anonymousImpersonating') headers.impersonate = p.admin.id;
  return { ...spec, headers };
}

export interface Prepared extends RequestSpec {
  /** Runs after the answer (e.g. keeps a rotated refresh cookie, forgets a deleted victim). */
  after?: (answer: Answer) => void;
  /** Stop reading after the headers (server-sent events). */
  headersOnly?: boolean;
  /** A login of the caller's own to send instead of the shared one (a log-off ends the login it is sent with). */
  session?: Account;
}

export interface RouteAccess {
  rule: AccessRule;
  /** Also accepts the access token as the httpOnly cookie (must match the route's `acceptsAccessCookie`). */
  cookieAuth?: boolean;
  /** Statuses that mean "allowed and done" for this request (default 200), with why when not 200. */
  success?: number[];
  /** Authenticated by a secret of its own and never by a cookie, so no forged request can use one: why. */
  ownSecret?: string;
  note?: string;
  build(m: MatrixContext, actor: Actor): Promise<Prepared>;
}

const get = (path: string): Prepared => ({ method: 'GET', path });
const PASSWORD = 'Seeblick!2026';

/** Reuses the victim under `key` until a request deletes it (status 200). */
async function victim<T>(m: MatrixContext, key: string, create: () => Promise<T>): Promise<[T, (a: Answer) => void]> {
  let value = m.victims.get(key) as T | undefined;
  if (value === undefined) {
    value = await create();
    m.victims.set(key, value);
  }
  return [value, (answer) => answer.status === 200 && m.victims.delete(key)];
}

/** A camera that takes pictures pushed by HTTP, with its upload secret: made once per portal. */
async function pushCamera(m: MatrixContext): Promise<{ name: string; secret: string }> {
  const [camera] = await victim(m, 'push-camera', async () => {
    const { id, name } = await createCamera(m.p, 'Matrix-Push');
    // svc-imaging hears of the camera from svc-webcam's event.
    await eventually(async () => {
      const set = await m.p.as(m.p.admin, {
        method: 'PUT',
        path: `/api/Image/Source?webcamId=${id}`,
        json: { kind: 'push' },
      });
      return set.status === 200 ? set : undefined;
    }, `push source of ${name}`);
    const made = await m.p.as(m.p.admin, { method: 'POST', path: `/api/Image/Source/PushSecret?webcamId=${id}` });
    return { name, secret: (await expectOk(made, 'push secret')).json.secret as string };
  });
  return camera;
}

async function pushRequest(m: MatrixContext, method: 'PUT' | 'POST'): Promise<Prepared> {
  const { name, secret } = await pushCamera(m);
  return {
    method,
    path: `/api/Image/Push/camera/${name}.jpg`,
    headers: { authorization: `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}` },
    raw: { contentType: 'image/jpeg', body: await testJpeg(320, 180) },
  };
}

const CAMERA_PUSH: Omit<RouteAccess, 'build'> = {
  rule: 'public',
  ownSecret: 'a camera pushing a picture with its upload secret (Basic or Bearer in Authorization); no cookie is read',
  // A signed-in caller's bearer token takes the secret's place in Authorization: not the secret, so 401.
  success: [201, 401],
};

async function newCode(m: MatrixContext, feature = 'Premium'): Promise<string> {
  const answer = await m.p.as(m.p.admin, { method: 'POST', path: `/api/Code/CreateCodes?feature=${feature}&count=1` });
  return (await expectOk(answer, 'create code')).json[0];
}

async function redeemedCode(m: MatrixContext, account: Account): Promise<string> {
  const code = await newCode(m);
  const answer = await m.p.as(account, { method: 'POST', path: `/api/Code/RegisterCode?code=${code}` });
  return (await expectOk(answer, 'redeem code')).json.id;
}

/** The next mail to `to` about `subject` after `before` mails of that kind. */
async function nextMail(p: SecurityPortal, to: string, subject: string, send: () => Promise<unknown>) {
  const matching = async () =>
    (await readOutbox(p.portal.outboxDir)).filter((mail) => mail.to.includes(to) && mail.subject.includes(subject));
  const before = (await matching()).length;
  await send();
  return eventually(async () => {
    const mails = await matching();
    return mails.length > before ? mails.at(-1) : undefined;
  }, `mail to ${to}`);
}

function registerModel(name: string) {
  return {
    firstname: 'Matrix',
    lastname: name,
    email: `${name}@example.org`,
    username: name,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    phoneNumber: '079 765 43 21',
  };
}

/**
 * The access rule of every route, by `METHOD url` as Fastify registered it (HEAD routes follow their GET).
 * A route the services register without an entry here fails the matrix.
 */
export const ROUTE_ACCESS: Record<string, RouteAccess> = {
  // svc-identity
  'GET /api/Captcha/Config': { rule: 'public', build: async () => get('/api/Captcha/Config') },
  'GET /api/Captcha/Challenge': { rule: 'public', build: async () => get('/api/Captcha/Challenge?action=register') },
  'POST /api/Authenticate/Authenticate': {
    rule: 'public',
    build: async (m) => ({
      method: 'POST',
      path: '/api/Authenticate/Authenticate',
      json: { username: m.f.bystander.userName, password: PASSWORD },
    }),
  },
  'POST /api/Authenticate/RefreshToken': {
    rule: 'refresh-cookie',
    build: async (_m, actor) => {
      const caller = actor.caller;
      return {
        method: 'POST',
        path: '/api/Authenticate/RefreshToken',
        headers: caller ? { cookie: `${REFRESH_COOKIE}=${caller.refreshCookie}` } : ({} as Record<string, string>),
        after: (answer) => {
          const rotated = setCookieValue(answer, REFRESH_COOKIE);
          if (caller && answer.status === 200 && rotated) caller.refreshCookie = rotated;
        },
      };
    },
  },
  'GET /api/Authenticate/LogOut/logout': {
    rule: 'public',
    build: async ({ p }, { caller }) => ({
      ...get('/api/Authenticate/LogOut/logout'),
      ...(caller ? { session: await p.login(caller.userName, caller.password) } : {}),
    }),
  },
  'GET /api/Authenticate/Roles/roles': { rule: 'user', build: async () => get('/api/Authenticate/Roles/roles') },
  'GET /api/Authenticate/AllUsers': { rule: 'admin', build: async () => get('/api/Authenticate/AllUsers') },
  'POST /api/Register/Register': {
    rule: 'public',
    build: async (m) => ({
      method: 'POST',
      path: `/api/Register/Register?captcha=${await solveCaptcha(m.p.url, 'register')}`,
      json: registerModel(`matrix_reg_${m.next()}`),
    }),
  },
  'POST /api/Register/Update': {
    rule: 'user',
    build: async () => ({
      method: 'POST',
      path: '/api/Register/Update',
      json: { firstName: 'Test', lastName: 'Matrix', phoneNumber: '079 123 45 67' },
    }),
  },
  'POST /api/Register/RecoverPassword': {
    rule: 'public',
    build: async (m) => ({
      method: 'POST',
      path: `/api/Register/RecoverPassword?email=nobody-${m.next()}@example.org`,
    }),
  },
  'POST /api/Register/ResetPassword': {
    rule: 'public',
    note: 'with the code just mailed to an account of its own (same password again): a reset ends its logins',
    build: async (m) => {
      const [account] = await victim(m, 'reset-account', () => m.p.registerUser(`matrix_reset_${m.next()}`));
      const mail = await nextMail(m.p, account.email, 'Passwort', () =>
        m.p.call({ method: 'POST', path: `/api/Register/RecoverPassword?email=${account.email}` }),
      );
      const token = linkIn(mail, '/resetPassword').searchParams.get('code') ?? '';
      return {
        method: 'POST',
        path: '/api/Register/ResetPassword',
        json: {
          email: account.email,
          username: account.userName,
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          token,
        },
      };
    },
  },
  'GET /api/Register/Roles': { rule: 'user', build: async () => get('/api/Register/Roles') },
  'PUT /api/RegisterConfirm/Confirm': {
    rule: 'public',
    note: 'confirms a registration made just before',
    build: async (m) => {
      const model = registerModel(`matrix_confirm_${m.next()}`);
      const captcha = await solveCaptcha(m.p.url, 'register');
      const mail = await nextMail(m.p, model.email, 'Registrierung', async () =>
        expectOk(
          await m.p.call({ method: 'POST', path: `/api/Register/Register?captcha=${captcha}`, json: model }),
          'register',
        ),
      );
      const token = linkIn(mail, '/confirmRegistration').searchParams.get('token') ?? '';
      return { method: 'PUT', path: `/api/RegisterConfirm/Confirm${queryString({ userEmail: model.email, token })}` };
    },
  },
  'POST /api/Code/CreateCodes': {
    rule: 'admin',
    build: async () => ({ method: 'POST', path: '/api/Code/CreateCodes?feature=Premium&count=1' }),
  },
  'POST /api/Code/RegisterCode': {
    rule: 'user',
    build: async (m) => ({ method: 'POST', path: `/api/Code/RegisterCode?code=${await newCode(m)}` }),
  },
  'GET /api/Code/GetCodes': { rule: 'user', build: async () => get('/api/Code/GetCodes') },
  'GET /api/Code/GetAllCodes': { rule: 'admin', build: async () => get('/api/Code/GetAllCodes') },
  'DELETE /api/Code/RemoveCodeAssignement': {
    rule: 'user',
    note: "the acting user's own assignment, redeemed just before",
    build: async (m, actor) => {
      const id = actor.acting ? await redeemedCode(m, actor.acting) : crypto.randomUUID();
      return { method: 'DELETE', path: `/api/Code/RemoveCodeAssignement?codeAssignementGuid=${id}` };
    },
  },
  'DELETE /api/Code/RemoveCodeAssignementFromSystem': {
    rule: 'admin',
    build: async (m) => {
      const [id, after] = await victim(m, 'assignment', () => redeemedCode(m, m.f.bystander));
      return {
        method: 'DELETE',
        path: `/api/Code/RemoveCodeAssignementFromSystem?userGuid=${m.f.bystander.id}&codeAssignementGuid=${id}`,
        after,
      };
    },
  },
  'POST /api/Code/AuthenticateUser': {
    rule: 'admin',
    build: async (m) => ({ method: 'POST', path: `/api/Code/AuthenticateUser?userGuid=${m.f.bystander.id}` }),
  },
  'POST /api/Contact/Contact': {
    rule: 'public',
    build: async (m) => ({
      method: 'POST',
      path: `/api/Contact/Contact?captcha=${await solveCaptcha(m.p.url, 'contact')}`,
      json: {
        mail: 'visitor@example.org',
        name: 'Visitor Matrix',
        phone: '079 123 45 67',
        subject: 'Anderes',
        message: 'A message from the authorization matrix.',
      },
    }),
  },

  // svc-webcam
  'GET /api/Webcam/GetImages': { rule: 'public', build: async () => get('/api/Webcam/GetImages') },
  'GET /api/Webcam/GetCameras': { rule: 'public', build: async () => get('/api/Webcam/GetCameras') },
  'GET /api/Webcam/GetCameraById': {
    rule: 'public',
    build: async (m) => get(`/api/Webcam/GetCameraById?id=${m.f.camera.id}`),
  },
  'GET /api/Webcam/GetImageHistory': {
    rule: 'public',
    build: async (m) => get(`/api/Webcam/GetImageHistory?name=${m.f.camera.name}`),
  },
  'GET /api/Webcam/GetBestOf': {
    rule: 'public',
    build: async (m) => get(`/api/Webcam/GetBestOf?name=${m.f.camera.name}&day=${isoDayOf(m.f.imageName)}`),
  },
  'GET /api/Webcam/GetBestOfDay': {
    rule: 'public',
    build: async (m) => get(`/api/Webcam/GetBestOfDay?day=${isoDayOf(m.f.imageName)}`),
  },
  'PUT /api/Webcam/SetBestOf': {
    rule: 'admin',
    build: async (m) => ({
      method: 'PUT',
      path: `/api/Webcam/SetBestOf?name=${m.f.camera.name}&day=${isoDayOf(m.f.imageName)}&image=${m.f.imageName}`,
    }),
  },
  'DELETE /api/Webcam/SetBestOf': {
    rule: 'admin',
    build: async (m) => ({
      method: 'DELETE',
      path: `/api/Webcam/SetBestOf?name=${m.f.camera.name}&day=${isoDayOf(m.f.imageName)}`,
    }),
  },
  'GET /api/Webcam/GetImageDays': {
    rule: 'public',
    build: async (m) =>
      get(`/api/Webcam/GetImageDays?name=${m.f.camera.name}&month=${isoDayOf(m.f.imageName).slice(0, 7)}`),
  },
  'POST /api/Webcam/Set': {
    rule: 'admin',
    build: async (m) => ({
      method: 'POST',
      path: '/api/Webcam/Set',
      json: {
        name: `Matrix-${m.next()}`,
        pattern: 'http://127.0.0.1:9/x.jpg',
        distance: 3,
        angle: 90,
        intervalMin: 15,
      },
    }),
  },
  'DELETE /api/Webcam/Delete': {
    rule: 'admin',
    build: async (m) => {
      const [camera, after] = await victim(m, 'camera', () => createCamera(m.p, `Matrix-Victim-${m.next()}`));
      return { method: 'DELETE', path: '/api/Webcam/Delete', json: { id: camera.id }, after };
    },
  },
  'GET /api/Webcam/GetUsers/users': {
    rule: 'admin',
    build: async (m) => get(`/api/Webcam/GetUsers/users?webcamId=${m.f.spareCamera.id}`),
  },
  'POST /api/Webcam/SetUsers/users': {
    rule: 'admin',
    build: async (m) => ({
      method: 'POST',
      path: `/api/Webcam/SetUsers/users?webcamId=${m.f.spareCamera.id}`,
      json: [m.f.bystander.id],
    }),
  },
  'GET /api/Webcam/GetConfiguration/configuration': {
    rule: 'admin',
    build: async (m) => get(`/api/Webcam/GetConfiguration/configuration?webcamId=${m.f.spareCamera.id}`),
  },
  'POST /api/Webcam/SetConfiguration/configuration': {
    rule: 'admin',
    build: async (m) => ({
      method: 'POST',
      path: `/api/Webcam/SetConfiguration/configuration?webcamId=${m.f.spareCamera.id}&userId=${m.f.bystander.id}&quality=LOW`,
    }),
  },
  'DELETE /api/Webcam/RemoveConfiguration/configuration': {
    rule: 'admin',
    build: async (m) => {
      const [id, after] = await victim(m, 'configuration', async () => {
        const webcamId = m.f.spareCamera.id;
        await expectOk(
          await m.p.as(m.p.admin, {
            method: 'POST',
            path: `/api/Webcam/SetConfiguration/configuration?webcamId=${webcamId}&quality=MEDIUM`,
          }),
          'configuration',
        );
        const list = await m.p.as(m.p.admin, get(`/api/Webcam/GetConfiguration/configuration?webcamId=${webcamId}`));
        return (list.json as { id: number; user: unknown }[]).find((c) => c.user === null)?.id;
      });
      return { method: 'DELETE', path: `/api/Webcam/RemoveConfiguration/configuration?configurationId=${id}`, after };
    },
  },
  'GET /api/Webcam/GetReferers/referers': {
    rule: 'admin',
    build: async (m) => get(`/api/Webcam/GetReferers/referers?webcamId=${m.f.spareCamera.id}`),
  },
  'PUT /api/Webcam/SetReferer/referer': {
    rule: 'admin',
    build: async (m) => ({
      method: 'PUT',
      path: `/api/Webcam/SetReferer/referer?webcamId=${m.f.spareCamera.id}`,
      json: { start: '2026-01-01', end: '2026-01-31', quality: 'LOW' },
    }),
  },
  'DELETE /api/Webcam/RemoveReferer/referer': {
    rule: 'admin',
    build: async (m) => {
      const webcamId = m.f.spareCamera.id;
      const [id, after] = await victim(m, 'booking', async () => {
        const saved = await m.p.as(m.p.admin, {
          method: 'PUT',
          path: `/api/Webcam/SetReferer/referer?webcamId=${webcamId}`,
          json: { start: '2026-02-01', end: '2026-02-28', quality: 'LOW' },
        });
        return (await expectOk(saved, 'booking')).json.id as number;
      });
      return {
        method: 'DELETE',
        path: `/api/Webcam/RemoveReferer/referer?webcamId=${webcamId}&refererId=${id}`,
        after,
      };
    },
  },
  'GET /api/Webcam/GetReferersofUser/referersOfUSer': {
    rule: 'user',
    build: async () => get('/api/Webcam/GetReferersofUser/referersOfUSer'),
  },
  'GET /api/News/News/news': { rule: 'public', build: async () => get('/api/News/News/news') },
  'PUT /api/News/News/news': {
    rule: 'admin',
    build: async (m) => ({ method: 'PUT', path: '/api/News/News/news', json: { text: m.news } }),
  },

  // svc-referer
  'GET /api/Referer/GetCameraInfo': {
    rule: 'user',
    build: async (m) => get(`/api/Referer/GetCameraInfo?cameraId=${m.f.camera.id}`),
  },
  'GET /api/Referer/GetPagesUses/PageUser': {
    rule: 'public',
    build: async () => get('/api/Referer/GetPagesUses/PageUser'),
  },
  'GET /api/Referer/GetRefererOfUser/ofUser': {
    rule: 'user',
    build: async () => get('/api/Referer/GetRefererOfUser/ofUser'),
  },
  'GET /api/Referer/GetRefererUsers': { rule: 'admin', build: async () => get('/api/Referer/GetRefererUsers') },
  'GET /api/Referer/GetReferers': { rule: 'user', build: async () => get('/api/Referer/GetReferers') },
  'GET /api/Referer/GetUsers/users': { rule: 'admin', build: async () => get('/api/Referer/GetUsers/users') },
  'PUT /api/Referer/Set': {
    rule: 'admin',
    build: async (m) => ({
      method: 'PUT',
      path: '/api/Referer/Set',
      json: { url: `https://spare.example.org/page-${m.next()}`, userEmail: m.f.bystander.email },
    }),
  },
  'DELETE /api/Referer/Delete': {
    rule: 'admin',
    build: async (m) => {
      const [id, after] = await victim(m, 'referer-user', async () => {
        const url = `https://spare.example.org/victim-${m.next()}`;
        const list = await m.p.as(m.p.admin, {
          method: 'PUT',
          path: '/api/Referer/Set',
          json: { url, userEmail: m.f.bystander.email },
        });
        return ((await expectOk(list, 'referer user')).json as { id: number; url: string }[]).find((r) => r.url === url)
          ?.id;
      });
      return { method: 'DELETE', path: `/api/Referer/Delete?id=${id}`, after };
    },
  },
  'GET /api/Referer/GetCameras/Cameras': { rule: 'user', build: async () => get('/api/Referer/GetCameras/Cameras') },
  'GET /api/Referer/GetLayer/layer': {
    rule: 'owner',
    build: async (m) =>
      get(`/api/Referer/GetLayer/layer${queryString({ url: m.f.refererUrl, level: 'BASE', cameraId: m.f.camera.id })}`),
  },
  'GET /api/Referer/GetLayerImage/layerimage': {
    rule: 'owner',
    cookieAuth: true,
    build: async (m) => get(`/api/Referer/GetLayerImage/layerimage?layerId=${m.f.layerId}&cameraId=${m.f.camera.id}`),
  },
  'DELETE /api/Referer/DeleteLayer/layer': {
    rule: 'owner',
    build: async (m) => {
      const [layerId, after] = await victim(m, 'layer', async () => {
        const answer = await m.p.as(m.f.referer, layerUpload(m.f.refererUrl, m.f.camera.id, await testPng()));
        return Number((await expectOk(answer, 'layer')).text);
      });
      return {
        method: 'DELETE',
        path: `/api/Referer/DeleteLayer/layer?layerId=${layerId}&cameraId=${m.f.camera.id}`,
        after,
      };
    },
  },
  'POST /api/Referer/SetLayer/layer': {
    rule: 'owner',
    build: async (m) => layerUpload(m.f.refererUrl, m.f.camera.id, await testPng()),
  },

  // svc-imaging
  'GET /api/Image/Get/camera/:file': {
    rule: 'public',
    cookieAuth: true,
    success: [302],
    note: "the caller's level decided, a private redirect to the picture's immutable name",
    build: async (m) => get(`/api/Image/Get/camera/${m.f.camera.name}.jpg`),
  },
  'GET /api/Image/Get/camera/:camera/:file': {
    rule: 'public',
    cookieAuth: true,
    success: [302],
    note: "the caller's level decided, a private redirect to the picture's immutable name",
    build: async (m) => get(`/api/Image/Get/camera/${m.f.camera.name}/${m.f.imageName}.jpg`),
  },
  // No credentials at all: the name (and above the public level its signature) is the right to it; unknown
  // names 404, unsigned or forged links 403 (authorization.int.test.ts, "pictures by their immutable names").
  'GET /pictures/:camera/:file': {
    rule: 'public',
    note: 'the picture at the public level by its immutable name, the same bytes for every caller',
    build: async (m) => get(m.f.picturePath),
  },
  // POOR is everybody's; a higher level is refused like a picture above the caller's quality (zoom.int.test.ts).
  'GET /api/Image/Zoom/camera/:camera/:file': {
    rule: 'public',
    cookieAuth: true,
    build: async (m) => get(`/api/Image/Zoom/camera/${m.f.camera.name}/${m.f.imageName}.dzi?level=POOR`),
  },
  'GET /api/Image/Zoom/camera/:camera/:folder/:zoomLevel/:tile': {
    rule: 'public',
    cookieAuth: true,
    build: async (m) => get(`/api/Image/Zoom/camera/${m.f.camera.name}/${m.f.imageName}_files/8/0_0.jpg?level=POOR`),
  },
  // The clip at the caller's quality, at most MEDIUM: the level is never chosen by the caller (timelapse.int.test.ts).
  'GET /api/Image/Timelapse/camera/:camera/:file': {
    rule: 'public',
    cookieAuth: true,
    build: async (m) => {
      const day = m.f.imageName;
      return get(
        `/api/Image/Timelapse/camera/${m.f.camera.name}/${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}.mp4`,
      );
    },
  },
  // The embedded player (embed.int.test.ts): its frame document, its beacon (the caller's own level), and the
  // views of a page, which only its owner or an Admin reads.
  'GET /api/Image/Embed/camera/:camera': {
    rule: 'public',
    cookieAuth: true,
    build: async (m) => get(`/api/Image/Embed/camera/${m.f.camera.name}`),
  },
  'GET /api/Image/EmbedView/camera/:camera': {
    rule: 'public',
    build: async (m) => get(`/api/Image/EmbedView/camera/${m.f.camera.name}`),
  },
  'GET /api/Image/EmbedViews': {
    rule: 'owner',
    build: async (m) =>
      get(`/api/Image/EmbedViews?camera=${m.f.camera.name}&page=${encodeURIComponent(m.f.refererUrl)}`),
  },
  'POST /api/Image/SetPosition/set': {
    rule: 'admin',
    build: async (m) => ({
      method: 'POST',
      path: '/api/Image/SetPosition/set',
      json: { webcamId: m.f.spareCamera.id, lat: 47.2, lng: 8.7, direction: 10, name: imageNameOf(new Date()) },
    }),
  },
  'POST /api/Image/Upload': {
    rule: 'admin',
    build: async (m) => ({
      method: 'POST',
      path: `/api/Image/Upload?webcamId=${m.f.spareCamera.id}`,
      multipart: [
        { name: 'file', file: { filename: 'up.jpg', contentType: 'image/jpeg', bytes: await testJpeg(320, 180) } },
      ],
    }),
  },
  'GET /api/Image/Source': {
    rule: 'admin',
    build: async (m) => get(`/api/Image/Source?webcamId=${m.f.spareCamera.id}`),
  },
  'PUT /api/Image/Source': {
    rule: 'admin',
    build: async (m) => ({
      method: 'PUT',
      path: `/api/Image/Source?webcamId=${m.f.spareCamera.id}`,
      json: { kind: 'http', username: 'kamera', password: 'Matrix-Kamera-Pw' },
    }),
  },
  'POST /api/Image/Source/FtpPassword': {
    rule: 'admin',
    build: async (m) => ({ method: 'POST', path: `/api/Image/Source/FtpPassword?webcamId=${m.f.spareCamera.id}` }),
  },
  'POST /api/Image/Source/PushSecret': {
    rule: 'admin',
    build: async (m) => ({ method: 'POST', path: `/api/Image/Source/PushSecret?webcamId=${m.f.spareCamera.id}` }),
  },
  'POST /api/Image/Source/Test': {
    rule: 'admin',
    note: 'a camera that cannot be reached: 200 with the reason',
    build: async () => ({
      method: 'POST',
      path: '/api/Image/Source/Test',
      json: { kind: 'http', url: 'http://127.0.0.1:9/camera.jpg' },
    }),
  },
  'PUT /api/Image/Push/camera/:file': { ...CAMERA_PUSH, build: (m) => pushRequest(m, 'PUT') },
  'POST /api/Image/Push/camera/:file': { ...CAMERA_PUSH, build: (m) => pushRequest(m, 'POST') },
  'GET /api/Jobs/dashboard': { rule: 'admin', cookieAuth: true, build: async () => get('/api/Jobs/dashboard') },
  'GET /api/Jobs/dashboard-frame.js': {
    rule: 'admin',
    cookieAuth: true,
    build: async () => get('/api/Jobs/dashboard-frame.js'),
  },
  'GET /api/Jobs/state': { rule: 'admin', cookieAuth: true, build: async () => get('/api/Jobs/state') },
  'GET /api/Jobs/timelapses': { rule: 'admin', cookieAuth: true, build: async () => get('/api/Jobs/timelapses') },
  'GET /api/Jobs/health': { rule: 'admin', build: async () => get('/api/Jobs/health') },
  'POST /api/Jobs/retry': {
    rule: 'admin',
    cookieAuth: true,
    note: 'a camera of its own that cannot be reached: 200 with the failed outcome, retried each time',
    build: async (m) => {
      const [camera] = await victim(m, 'unreachable-camera', () => createCamera(m.p, 'Matrix-Unreachable'));
      return { method: 'POST', path: `/api/Jobs/retry?webcamId=${camera.id}` };
    },
  },
  'POST /api/Jobs/pause': {
    rule: 'admin',
    cookieAuth: true,
    build: async (m) => ({ method: 'POST', path: `/api/Jobs/pause?webcamId=${m.f.spareCamera.id}` }),
  },
  'POST /api/Jobs/resume': {
    rule: 'admin',
    cookieAuth: true,
    build: async (m) => ({ method: 'POST', path: `/api/Jobs/resume?webcamId=${m.f.spareCamera.id}` }),
  },

  // gateway
  'GET /api/Events/stream': {
    rule: 'gateway',
    note: 'server-sent events of new pictures, the same for everybody',
    build: async () => ({ ...get('/api/Events/stream'), headersOnly: true }),
  },
  'GET /api/openapi.json': {
    rule: 'gateway',
    note: "the services' OpenAPI documents merged, the same for everybody",
    build: async () => get('/api/openapi.json'),
  },
  // Swagger UI over that document: its page, its settings and its files.
  ...Object.fromEntries(
    [
      ['/api/docs', '/api/docs'],
      ['/api/docs/', '/api/docs/'],
      ['/api/docs/json', '/api/docs/json'],
      ['/api/docs/yaml', '/api/docs/yaml'],
      ['/api/docs/static/swagger-initializer.js', '/api/docs/static/swagger-initializer.js'],
      ['/api/docs/static/*', '/api/docs/static/swagger-ui.css'],
    ].map(([route, path]) => [
      `GET ${route}`,
      { rule: 'gateway', note: 'the API reference page (Swagger UI)', build: async () => get(path as string) },
    ]),
  ),
  'GET /api/docs/static/index.html': {
    rule: 'gateway',
    success: [302],
    note: 'the reference page by its file name sends to its address',
    build: async () => get('/api/docs/static/index.html'),
  },
};

/**
 * Routes outside the matrix, with why. Service infrastructure is not under /api, so the gateway never
 * forwards it (it answers /health and /ready itself, /metrics with 404); the catch-all is the routing itself.
 */
export const NOT_API_ROUTES: Record<string, string> = {
  '/health': 'liveness; the gateway answers its own',
  '/ready': 'readiness; the gateway answers its own',
  '/metrics': 'answers 404 on every public port: Prometheus reads METRICS_PORT (monitoring.int.test.ts)',
  '/documentation/json': 'OpenAPI; not routed by the gateway',
  '/config.json': 'gateway: page settings (map tiles)',
  '/remotes.json': 'gateway: micro-frontend manifest',
  '/documentation': 'gateway: sends to the API reference at /api/docs',
  '/releases/*': 'gateway: remotes released on their own (scripts/release.ts), public files',
  '/api/*': 'gateway: hands /api/<Controller>/… to the owning service (every row of the matrix passes it)',
  '/pictures/*': 'gateway: hands pictures by their immutable names to svc-imaging (its row passes it)',
};

/**
 * The routes the matrix and the walks check: the services' routes under /api and the pictures by their names,
 * not the gateway's catch-alls that forward them.
 */
export function isServiceRoute(url: string): boolean {
  if (url === '/api/*' || url === `${PICTURE_PATH_PREFIX}*`) return false;
  return url.startsWith('/api/') || url.startsWith(PICTURE_PATH_PREFIX);
}

/**
 * decisions.md "Roles of the acting user": Admin-only endpoints check the verified caller's token, so an
 * admin keeps admin rights while acting as somebody (the impersonate page lists users while acting).
 * Everything else (own data, pages, layers, codes) follows the acting user.
 */
export const ADMIN_KEEPS_ADMIN_ROUTES_WHILE_IMPERSONATING = true;

/**
 * The request with invalid input wherever a caller can put some: every query value a NUL character, a body that
 * is no JSON (for uploads, no form). A protected route must refuse an unfit caller before it looks at any of it.
 */
export function withInvalidInput(spec: Prepared): Prepared {
  const [path, query] = spec.path.split('?');
  const values = query ? query.split('&').map((pair) => `${pair.split('=')[0]}=%00`) : ['unknown=%00'];
  const { json: _json, multipart, raw: _raw, ...rest } = spec;
  const invalid = { ...rest, path: `${path}?${values.join('&')}` };
  if (isSafeMethod(spec.method)) return invalid;
  const raw = multipart
    ? { contentType: 'multipart/form-data; boundary=x', body: 'no form' }
    : { contentType: 'application/json', body: '{"broken":' };
  return { ...invalid, raw };
}

/** What a protected route answers a caller before it reads the input (null: the answer depends on the input). */
export function refusalBeforeInput(access: RouteAccess, role: Role): 401 | 403 | null {
  if (access.rule === 'public' || access.rule === 'gateway' || access.rule === 'refresh-cookie') return null;
  // Impersonate from a non-admin is refused by the auth plugin before any route runs.
  if (role === 'userImpersonating' || role === 'anonymousImpersonating') return 403;
  if (role === 'anonymous') return 401;
  if (access.rule === 'admin' && (role === 'user' || role === 'referer')) return 403;
  return null;
}

/** The statuses a role may get on a route under its rule. */
export function expectedStatuses(access: RouteAccess, role: Role): number[] {
  const success = access.success ?? [200];
  if (access.rule === 'gateway') return success;
  // Impersonate from a non-admin is refused before any route runs (service-kit auth).
  if (role === 'userImpersonating' || role === 'anonymousImpersonating') return [403];
  if (access.rule === 'public') return success;
  if (role === 'anonymous') return [401];
  switch (access.rule) {
    case 'user':
    case 'refresh-cookie':
      return success;
    case 'admin':
      if (role === 'admin') return success;
      if (role === 'adminAsReferer') return ADMIN_KEEPS_ADMIN_ROUTES_WHILE_IMPERSONATING ? success : [403];
      return [403];
    case 'owner':
      return role === 'user' ? [403] : success;
  }
}
