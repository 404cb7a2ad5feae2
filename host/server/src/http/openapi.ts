import { z } from 'zod';
import type { ApiRoute } from '@tessera/sdk/server';

const schemaOf = (s: unknown) => {
  try {
    return z.toJSONSchema(s as z.ZodType, { unrepresentable: 'any', io: 'input' });
  } catch {
    return {};
  }
};

/** The answer of a route that does not answer JSON: bytes of a media type, or a redirect. */
const produced = (media: string | string[]) =>
  media === 'redirect'
    ? { 302: { description: 'Redirect', headers: { location: { schema: { type: 'string' } } } } }
    : {
        200: {
          description: 'Content',
          content: Object.fromEntries(
            [media].flat().map((m) => [m, { schema: { type: 'string', format: 'binary' } }] as const),
          ),
        },
      };

/** A route's answer: JSON (in the envelope, or raw), server-sent events, bytes of a media type or a redirect. */
function answerOf(r: ApiRoute): Record<number, unknown> {
  if (r.produces) return produced(r.produces);
  // A stream's answer is its events (named in the summary); a refusal before it opens is an envelope.
  if (r.stream)
    return {
      200: { description: 'Server-sent events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    };
  const data = r.response ? schemaOf(r.response) : {};
  return {
    200: {
      description: r.rawResponse ? 'Result' : 'Envelope {code: 0, msg: "", data}',
      content: {
        'application/json': {
          schema: r.rawResponse
            ? data
            : { type: 'object', properties: { code: { type: 'integer' }, msg: { type: 'string' }, data } },
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of every mounted route, built from their zod schemas. */
export function buildOpenApi(
  routes: { owner: string; value: ApiRoute }[],
  info: { title: string; version: string },
): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { owner, value: r } of routes) {
    const p = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const where of ['params', 'query'] as const) {
      const s = r[where]
        ? (schemaOf(r[where]) as { properties?: Record<string, unknown>; required?: string[] })
        : undefined;
      for (const [name, schema] of Object.entries(s?.properties ?? {})) {
        parameters.push({
          name,
          in: where === 'params' ? 'path' : 'query',
          required: where === 'params' || !!s?.required?.includes(name),
          schema,
        });
      }
    }
    (paths[p] ??= {})[r.method.toLowerCase()] = {
      summary: r.summary,
      tags: r.tags ?? [owner],
      'x-tessera-extension': owner,
      'x-tessera-auth': typeof r.auth === 'string' ? r.auth : { space: true, role: r.auth.role ?? 'member' },
      ...(r.permission ? { 'x-tessera-permission': r.permission } : {}),
      parameters,
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(r.body) } } } }
        : {}),
      responses: {
        ...answerOf(r),
        default: { description: 'Error envelope {code, msg} with the x-tt-logid header' },
      },
    };
  }
  return { openapi: '3.1.0', info, paths };
}
