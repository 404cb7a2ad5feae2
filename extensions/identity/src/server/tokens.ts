import { createHash, randomBytes } from 'node:crypto';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A secret with a recognisable prefix ('pat_...', 'ses_...'). */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

export function cookie(
  name: string,
  value: string,
  opts: { maxAgeSec?: number; httpOnly?: boolean; secure?: boolean },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Lax'];
  if (opts.maxAgeSec !== undefined) parts.push(`Max-Age=${opts.maxAgeSec}`);
  if (opts.httpOnly) parts.push('HttpOnly');
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Personal access tokens start 'pat_' (as Coze's do: its SDK tells them apart by it). */
export const PAT_PREFIX = 'pat';
