import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The page's Content Security Policy. Scripts, styles and remotes (Module Federation, under
 * /_extensions/) come from the studio itself; styles may be inline (the component library sets them);
 * images may be data/blob URLs or any https address (icons are URLs); nothing may frame the studio.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Browser security headers on every response; the policy on pages. */
export function securityHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  reply.header('x-frame-options', 'DENY');
  if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  done(null, payload);
}
