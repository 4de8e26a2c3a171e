import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The Ed25519 key pair svc-identity signs access tokens with; other services get only the public key. */
export interface SigningKeys {
  privateKey: string;
  publicKey: string;
}

export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

export function generateSigningKeys(): SigningKeys {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { privateKey: pem, publicKey: publicKeyOf(pem) };
}

/** Read the private key from `file`, or create it there (mode 600) on first start. */
export async function loadOrCreateSigningKeys(file: string): Promise<SigningKeys> {
  if (existsSync(file)) {
    const privateKey = await readFile(file, 'utf8');
    return { privateKey, publicKey: publicKeyOf(privateKey) };
  }
  const keys = generateSigningKeys();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, keys.privateKey, { mode: 0o600 });
  return keys;
}

/** A random secret (hex) read from `file`, or created there (mode 600) on first start. */
export async function loadOrCreateSecret(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(32).toString('hex');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
