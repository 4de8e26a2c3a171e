import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const argon2Async = promisify(argon2);

// OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane.
const PARAMETERS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 };

/** argon2id hash in PHC string format (Node's built-in argon2, no native add-on). */
export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(16);
  const tag = await argon2Async('argon2id', { message: password, nonce, ...PARAMETERS });
  const { memory, passes, parallelism } = PARAMETERS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${nonce.toString('base64url')}$${tag.toString('base64url')}`;
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(hash);
  if (!match) return false;
  const [, memory, passes, parallelism, nonce, expected] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const expectedTag = Buffer.from(expected, 'base64url');
  const tag = await argon2Async('argon2id', {
    message: password,
    nonce: Buffer.from(nonce, 'base64url'),
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expectedTag.length,
  });
  return timingSafeEqual(tag, expectedTag);
}

/** A hash to verify against when the user does not exist, so timing does not tell. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBytes(12).toString('hex'));
