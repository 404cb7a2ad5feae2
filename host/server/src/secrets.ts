import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Secrets } from '@tessera/sdk/server';

/** The key: TESSERA_SECRET_KEY (any text, hashed to 32 bytes) or a random key kept in <dataDir>/secret.key (mode 0600). */
export function loadSecretKey(dataDir: string, configured?: string): Buffer {
  if (configured) return createHash('sha256').update(configured).digest();
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

export function createSecrets(key: Buffer): Secrets {
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    decrypt(sealed) {
      if (!sealed.startsWith('v1:')) throw new Error('not a sealed secret');
      const raw = Buffer.from(sealed.slice(3), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    mask(plain) {
      return plain.length <= 4 ? '****' : `****${plain.slice(-4)}`;
    },
  };
}
