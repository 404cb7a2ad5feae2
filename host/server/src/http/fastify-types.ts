// What the studio's routes carry in Fastify's route config and on the request, declared on Fastify's own types
// (declaration merging), so the hooks and body parsers read them without casts.
import type { RouteAudit } from '@tessera/sdk/server';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An SSE route: the open API answers its errors with 200, so that stream clients read the body. */
    stream?: boolean;
    /** The route reads its body itself, as a stream (multipart, raw bytes, protobuf). */
    upload?: boolean;
    /** The route checks a signature over the body as sent: its text is kept as `request.rawBody`. */
    rawBody?: boolean;
    /** The route takes a form body (application/x-www-form-urlencoded). */
    formBody?: boolean;
    /** What the audit log records of a call. */
    audit?: RouteAudit;
    /** The extension that registered the route. */
    extensionId?: string;
  }
  interface FastifyRequest {
    /** The body's text as received (routes with `rawBody` only). */
    rawBody?: string;
  }
}
