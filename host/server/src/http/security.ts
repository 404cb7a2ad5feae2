import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The page's Content Security Policy. Scripts, styles and remotes (Module Federation, under
 * /_extensions/) come from the studio itself; styles may be inline (the component library sets them);
 * images may be data/blob URLs or any https address (icons are URLs); audio may be a blob URL (speech made for the
 * page: read aloud, voice previews); nothing may frame the studio.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Browser security headers on every response; the policy on pages. A route that sets its own
 * Content-Security-Policy keeps it, and then no X-Frame-Options is added: that is how a page says which
 * sites may frame it (frame-ancestors), as the Web SDK's embedded chat does for its allowed origins.
 */
export function securityHeaders(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  if (reply.hasHeader('content-security-policy')) return done(null, payload);
  reply.header('x-frame-options', 'DENY');
  if (String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  done(null, payload);
}
