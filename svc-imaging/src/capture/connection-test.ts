import type { ConnectionFailure, ConnectionTestResult } from '@lakecams/contracts';
import sharp from 'sharp';
import { withoutUrlLogins } from './camera-login.ts';
import { uploadProblem } from './picture-ingest.ts';

/** The failure a fetch's message names, for the dialog to explain in German. */
export function failureOf(message: string): ConnectionFailure {
  if (/host not found/i.test(message)) return 'dns';
  if (/connection refused|connection reset|unreachable/i.test(message)) return 'refused';
  if (/no answer within|timed out|within \d+ s/i.test(message)) return 'timeout';
  if (/login|401/i.test(message)) return 'login';
  if (/answered 404|not found \(404\)/i.test(message)) return 'not-found';
  if (/too large/i.test(message)) return 'too-large';
  if (/no frame|not a stream/i.test(message)) return 'no-frame';
  if (/not an image|not a picture/i.test(message)) return 'not-a-picture';
  return 'other';
}

/** "Verbindung testen": one picture now with the settings given, its size and time, or exactly why not. */
export async function testConnection(fetchPicture: () => Promise<Buffer>): Promise<ConnectionTestResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let bytes: Buffer;
  try {
    bytes = await fetchPicture();
  } catch (error) {
    const message = withoutUrlLogins((error as Error).message).slice(0, 500);
    return { ok: false, ms: ms(), reason: failureOf(message), message };
  }
  const took = ms();
  const problem = await uploadProblem(bytes);
  if (problem) {
    const reason = problem.status === 413 ? 'too-large' : 'not-a-picture';
    const message = problem.status === 413 ? problem.message : 'The camera answered something that is not a picture';
    return { ok: false, ms: took, reason, message };
  }
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  // A small copy to look at, not the whole picture in the answer.
  const preview = await sharp(bytes).resize({ width: 480, withoutEnlargement: true }).jpeg({ quality: 70 }).toBuffer();
  return {
    ok: true,
    width,
    height,
    bytes: bytes.length,
    ms: took,
    preview: `data:image/jpeg;base64,${preview.toString('base64')}`,
  };
}
