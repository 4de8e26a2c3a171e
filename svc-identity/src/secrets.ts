import { createHash, randomBytes, randomInt } from 'node:crypto';

/** Opaque random token, URL-safe. 48 bytes give 64 characters (confirmation tokens need at least 60). */
export function randomToken(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens and codes are stored only as their SHA-256. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Human-typable code (no 0/O, 1/I), e.g. for reset codes and feature codes. */
export function readableCode(length = 12): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}
