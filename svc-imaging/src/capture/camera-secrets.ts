import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';

/**
 * Seals camera passwords at rest (AES-256-GCM under a key derived from CAMERA_SECRET_KEY): a copy of the
 * database or a backup alone does not give away the logins of the cameras.
 */
export function createSecretBox(key: string) {
  const secret = createHash('sha256').update(`lakecams camera logins\0${key}`).digest();
  return {
    seal(text: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    open(sealed: string): string {
      const [version, iv, tag, text] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || text === undefined) throw new Error('Not a sealed camera password');
      const decipher = createDecipheriv('aes-256-gcm', secret, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(text, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;

/** A password or push secret the portal makes for a camera: 24 random bytes, typeable (base64url). */
export const newCameraSecret = () => randomBytes(24).toString('base64url');

/** Push secrets are random and long: a plain SHA-256 is enough to keep them unreadable at rest. */
export const hashCameraSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function matchesCameraSecret(secret: string, hash: string | null): boolean {
  if (!hash) return false;
  const given = Buffer.from(hashCameraSecret(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
