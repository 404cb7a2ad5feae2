// OAuth 2's own endpoints, as Coze's SDK calls them: /authorize (a browser is sent on to the consent page), the device
// code, and the token endpoint for every grant type. The token endpoint answers OAuth's shapes, not the studio's
// envelope: {access_token, expires_in, refresh_token, token_type} or, with a 400/401, {error, error_description}
// (plus Coze's code, msg and log id), which is what `getDeviceToken` reads to keep polling.
import type { ApiReply, ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { DeviceCodeAnswer, TokenAnswer } from '../shared/api.ts';
import { OAuthError, type GrantService } from './grants.ts';

const OAUTH = '/api/permission/oauth2';
const AuthorizeQuery = z.record(z.string(), z.unknown());
const TokenBody = z
  .object({
    grant_type: z.string().max(100).default(''),
    client_id: z.coerce.string().max(40).default(''),
    client_secret: z.string().max(200).default(''),
    code: z.string().max(200).default(''),
    redirect_uri: z.string().max(1000).default(''),
    code_verifier: z.string().max(200).default(''),
    refresh_token: z.string().max(200).default(''),
    device_code: z.string().max(200).default(''),
    duration_seconds: z.coerce.number().default(900),
    scope: z.unknown().optional(),
  })
  .catchall(z.unknown());

/** The studio's address as the caller reached it (for the device's verification URI and a JWT's audience). */
function originOf(req: { headers: Record<string, string | string[] | undefined>; raw?: unknown }): {
  origin: string;
  host: string;
} {
  const raw = req.raw as { protocol?: string; host?: string } | undefined;
  const host = raw?.host ?? String(req.headers.host ?? 'localhost');
  return { origin: `${raw?.protocol ?? 'http'}://${host}`, host };
}

function bearer(headers: Record<string, string | string[] | undefined>): string {
  const auth = headers.authorization;
  return typeof auth === 'string' ? auth.replace(/^Bearer\s*/i, '').trim() : '';
}

function answerError(reply: ApiReply, e: OAuthError, logId: string) {
  reply.status(e.status);
  reply.header('cache-control', 'no-store');
  reply.send(
    JSON.stringify({
      code: e.status === 401 ? 4100 : 4000,
      msg: e.description,
      error: e.error,
      error_description: e.description,
      detail: { logid: logId },
    }),
    'application/json; charset=utf-8',
  );
}

export function registerOAuth2(ctx: ServerContext, grants: GrantService): void {
  // The browser's first stop: on to the studio's consent page with the same query (it asks the user to sign in first).
  for (const path of [`${OAUTH}/authorize`, `${OAUTH}/workspace_id/:workspace_id/authorize`])
    ctx.route({
      method: 'GET',
      path,
      produces: 'redirect',
      auth: 'anonymous',
      summary: 'Start an authorization: the browser goes on to the consent page',
      query: AuthorizeQuery,
      params: z.object({ workspace_id: z.string().max(32).optional() }),
      handler: ({ query, params }, reply) => {
        const q = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) if (typeof v === 'string') q.set(k, v);
        if (params.workspace_id) q.set('workspace_id', params.workspace_id);
        reply.status(302);
        reply.header('location', `/oauth/authorize?${q.toString()}`);
        reply.send('', 'text/plain');
      },
    });

  for (const path of [`${OAUTH}/device/code`, `${OAUTH}/workspace_id/:workspace_id/device/code`])
    ctx.route({
      method: 'POST',
      path,
      auth: 'anonymous',
      formBody: true,
      rawResponse: true,
      rateLimit: { max: 30 },
      summary: 'A device asks for a device code and a user code to show',
      response: DeviceCodeAnswer,
      body: z.object({ client_id: z.coerce.string().max(40).default('') }).catchall(z.unknown()),
      params: z.object({ workspace_id: z.string().max(32).optional() }),
      handler: async (req, reply) => {
        try {
          return await grants.startDeviceRequest(
            req.body.client_id,
            req.params.workspace_id ?? '',
            originOf(req).origin,
          );
        } catch (e) {
          if (!(e instanceof OAuthError)) throw e;
          answerError(reply, e, req.logId);
        }
      },
    });

  for (const path of [`${OAUTH}/token`, `${OAUTH}/account/:account_id/token`])
    ctx.route({
      method: 'POST',
      path,
      auth: 'anonymous',
      formBody: true,
      rawResponse: true,
      rateLimit: { max: 300 },
      summary: 'The token endpoint: authorization code, refresh token, device code and JWT bearer grants',
      response: TokenAnswer,
      body: TokenBody,
      params: z.object({ account_id: z.string().max(32).optional() }),
      handler: async (req, reply) => {
        const b = req.body;
        reply.header('cache-control', 'no-store');
        const secret = b.client_secret || bearer(req.headers);
        try {
          switch (b.grant_type) {
            case 'authorization_code':
              return await grants.exchangeCode({
                clientId: b.client_id,
                code: b.code,
                redirectUri: b.redirect_uri,
                verifier: b.code_verifier,
                secret,
              });
            case 'refresh_token':
              return await grants.refresh({ clientId: b.client_id, refreshToken: b.refresh_token, secret });
            case 'urn:ietf:params:oauth:grant-type:device_code':
              return await grants.deviceToken({ clientId: b.client_id, deviceCode: b.device_code });
            case 'urn:ietf:params:oauth:grant-type:jwt-bearer':
              return await grants.jwtBearer({
                jwt: bearer(req.headers),
                durationSeconds: b.duration_seconds,
                host: originOf(req).host,
              });
            default:
              throw new OAuthError(
                400,
                'unsupported_grant_type',
                `grant_type ${b.grant_type || '(none)'} is not supported: use authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code or urn:ietf:params:oauth:grant-type:jwt-bearer.`,
              );
          }
        } catch (e) {
          if (!(e instanceof OAuthError)) throw e;
          answerError(reply, e, req.logId);
        }
      },
    });
}
