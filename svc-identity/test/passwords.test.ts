import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/passwords.ts';

describe('password hashing', () => {
  it('stores argon2id hashes in PHC format with a random salt', async () => {
    const a = await hashPassword('Seeblick!2026');
    const b = await hashPassword('Seeblick!2026');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password only', async () => {
    const hash = await hashPassword('Seeblick!2026');
    expect(await verifyPassword(hash, 'Seeblick!2026')).toBe(true);
    expect(await verifyPassword(hash, 'seeblick!2026')).toBe(false);
    expect(await verifyPassword('not a hash', 'Seeblick!2026')).toBe(false);
  });
});
