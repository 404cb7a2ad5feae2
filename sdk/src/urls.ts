// URLs that people save and the studio later shows as links or fetches: only http(s). A `javascript:`,
// `file:` or `data:` address handed back as an "Authorise" link or a source to fetch is an attack.
import { z } from 'zod';

/** True for an absolute http:// or https:// URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL; `what` names the field in the message ("the authorization URL"). */
export const httpUrl = (what = 'the URL', max = 2000) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(isHttpUrl, { message: `Give ${what} as an http:// or https:// address.` });

/**
 * An image reference (icons, avatars): a path or storage key of the studio, a preset icon (`icon:name`) or colour (`color:#165DFF`), an
 * http(s) URL, or an inline `data:image/...` picture; any other scheme (`javascript:`, `file:` ...) is refused.
 */
export function isSafeImageRef(value: string): boolean {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (!scheme) return !value.trim().startsWith('//');
  // A preset icon of the studio's own set by name (icon:calendar), or a chosen colour (color:#165DFF).
  if (scheme === 'icon') return /^icon:[\w.-]{1,64}$/.test(value);
  if (scheme === 'color') return /^color:(#[0-9a-f]{3,8}|[a-z]{1,32})$/i.test(value);
  if (scheme === 'data') return /^\s*data:image\/(png|jpe?g|gif|webp|svg\+xml|avif)[;,]/i.test(value);
  return isHttpUrl(value.trim());
}

export const imageRef = (max = 2000) =>
  z.string().max(max).refine(isSafeImageRef, {
    message: 'Give the picture as an uploaded file, an http(s) address or a data:image/... value.',
  });
