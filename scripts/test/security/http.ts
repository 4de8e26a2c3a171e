import { XSRF_COOKIE } from '@lakecams/contracts';
import { type AntiForgeryPair, antiForgeryFrom, antiForgeryHeaders } from '@lakecams/service-kit/testing';
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';

/** One request as the security suites send it: the path goes on the wire exactly as given (no URL normalisation). */
export interface RequestSpec {
  method: string;
  /** Path with query string, sent verbatim: `../`, `%2e%2e` and friends reach the server untouched. */
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  multipart?: MultipartPart[];
  /** Raw body with its content type (takes precedence over json/multipart). */
  raw?: { contentType: string; body: Buffer | string };
  /** Resolve as soon as the headers arrive and close the connection (streams). */
  headersOnly?: boolean;
}

export interface MultipartPart {
  name: string;
  value?: string;
  file?: { filename: string; contentType: string; bytes: Buffer };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: suites assert on the JSON they expect
  json: any;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const streamAgent = new Agent({ keepAlive: false });

/** `?a=1&b=2` from a record; values are encoded, keys too. */
export function queryString(query: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(query).filter(([, v]) => v !== undefined) as [string, string | number][];
  if (pairs.length === 0) return '';
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}`;
}

export function multipartBody(parts: MultipartPart[]): { contentType: string; body: Buffer } {
  const boundary = `----lakecams${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.file
      ? `form-data; name="${part.name}"; filename="${part.file.filename}"\r\nContent-Type: ${part.file.contentType}`
      : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(part.file ? part.file.bytes : Buffer.from(part.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

function bodyOf(spec: RequestSpec): { contentType: string; body: Buffer } | null {
  if (spec.raw) return { contentType: spec.raw.contentType, body: Buffer.from(spec.raw.body) };
  if (spec.multipart) return multipartBody(spec.multipart);
  if (spec.json !== undefined) return { contentType: 'application/json', body: Buffer.from(JSON.stringify(spec.json)) };
  return null;
}

function answerOf(status: number, headers: Answer['headers'], body: Buffer): Answer {
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, body, text, json };
}

/** Sends one request over node:http to the portal at `base` (http://host:port). */
export function send(base: string, spec: RequestSpec): Promise<Answer> {
  const url = new URL(base);
  const payload = bodyOf(spec);
  const headers: Record<string, string | number> = { ...spec.headers };
  if (payload) {
    headers['content-type'] ??= payload.contentType;
    headers['content-length'] = payload.body.length;
  }
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: spec.method,
        path: spec.path,
        headers,
        agent: spec.headersOnly ? streamAgent : agent,
      },
      (response) => {
        if (spec.headersOnly) {
          resolve(answerOf(response.statusCode ?? 0, response.headers, Buffer.alloc(0)));
          request.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(answerOf(response.statusCode ?? 0, response.headers, Buffer.concat(chunks))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.setTimeout(20_000, () => request.destroy(new Error(`${spec.method} ${spec.path} timed out`)));
    request.end(payload?.body);
  });
}

/** The request as bytes on the wire, head and body apart, asking to close the connection afterwards. */
export function requestBytes(base: string, spec: RequestSpec): { head: Buffer; body: Buffer } {
  const payload = bodyOf(spec);
  const headers: Record<string, string | number> = { host: new URL(base).host, ...spec.headers, connection: 'close' };
  if (payload) {
    headers['content-type'] ??= payload.contentType;
    headers['content-length'] = payload.body.length;
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const head = Buffer.from(`${spec.method} ${spec.path} HTTP/1.1\r\n${lines.join('')}\r\n`, 'latin1');
  return { head, body: payload?.body ?? Buffer.alloc(0) };
}

function rawAnswer(all: Buffer): Answer {
  const split = all.indexOf('\r\n\r\n');
  const statusLine = all.subarray(0, all.indexOf('\r\n')).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Answer['headers'] = {};
  for (const line of all.subarray(0, split).toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body: Buffer = split >= 0 ? all.subarray(split + 4) : Buffer.alloc(0);
  if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) body = dechunk(body);
  return answerOf(status, headers, body);
}

/** Bytes straight onto a socket, for request lines node:http refuses to send (raw NUL, raw unicode, bad escapes). */
export function sendRawRequest(base: string, head: Buffer): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close the connection on a request it cannot parse: whatever came back is the answer.
    socket.on('error', () => socket.destroy());
    socket.setTimeout(30_000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('close', () => resolve(rawAnswer(Buffer.concat(chunks))));
  });
}

/**
 * As a client that reads only after its last byte is sent (Python's urllib): the head, then the whole body,
 * whatever answer came meanwhile (the body goes as soon as one does, or after `pauseMs`). When the server
 * closed the connection before it read the body, sending fails and the client never sees the answer: status 0.
 */
export function sendBodyUnheeding(base: string, spec: RequestSpec, pauseMs = 500): Promise<Answer> {
  const url = new URL(base);
  const { head, body } = requestBytes(base, spec);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let failure: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    const sendBody = () => {
      clearTimeout(timer);
      if (!socket.writableEnded) socket.end(body);
    };
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      timer = setTimeout(sendBody, pauseMs);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      sendBody();
    });
    socket.on('error', (error) => {
      failure = error;
      socket.destroy();
    });
    socket.setTimeout(60_000, () => socket.destroy(new Error('request timed out')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(failure ? answerOf(0, {}, Buffer.from(`${failure.message}`)) : rawAnswer(Buffer.concat(chunks)));
    });
  });
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The anti-forgery pair the gateway hands a new browser: its cookies and the token to echo. */
export async function antiForgeryToken(base: string): Promise<AntiForgeryPair> {
  const page = await send(base, { method: 'GET', path: '/health' });
  const pair = antiForgeryFrom(([] as string[]).concat(page.headers['set-cookie'] ?? []));
  if (!pair) throw new Error(`The gateway set no ${XSRF_COOKIE} cookie`);
  return pair;
}

export function withAntiForgery(pair: AntiForgeryPair, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, ...antiForgeryHeaders(pair, headers.cookie) };
}

/** The value of cookie `name` set by an answer, if any. */
export function setCookieValue(answer: Answer, name: string): string | undefined {
  const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
  return cookies.map((c) => new RegExp(`^${name}=([^;]*)`).exec(c)?.[1]).find((v) => v !== undefined);
}

export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD';
