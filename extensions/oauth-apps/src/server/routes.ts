// The OAuth apps' studio routes: an owner's apps (meta, secrets, keys, configuration), the consent page's calls, a
// user's authorized apps, and Coze's /v1/oauth-apps/{appid}/authorizations.
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  AuthorizeAppWithDeclaredPermission,
  AuthorizeConsent,
  AppAuthorizations,
  CreateAppMeta,
  CreateClientSecret,
  DeleteApp,
  DeleteClientSecret,
  DeletePublicKey,
  DeviceRequestInfo,
  GenerateKeyPair,
  GetAppAuthorizationRequestInfo,
  GetAppMeta,
  ListAppMeta,
  ListAuthorizedApps,
  PutOAuth2Configuration,
  RevokeAppAuthorizedPermission,
  UpdateAppMeta,
  UploadPublicKey,
} from '../shared/api.ts';
import type { AppService } from './apps.ts';
import type { GrantService } from './grants.ts';

export function registerRoutes(ctx: ServerContext, apps: AppService, grants: GrantService): void {
  const user = 'user' as const;
  ctx.route({
    ...CreateAppMeta,
    audit: { action: 'oauth.app.create', target: 'name' },
    auth: user,
    handler: async ({ body, caller }) => ({
      app: await apps.create(caller!.userId, {
        name: body.name,
        description: body.description,
        clientType: body.client_type,
        permissions: body.declared_permission,
        config: body.oauth2_configuration,
      }),
    }),
  });
  ctx.route({ ...ListAppMeta, auth: user, handler: async ({ caller }) => ({ apps: await apps.list(caller!.userId) }) });
  ctx.route({
    ...GetAppMeta,
    auth: user,
    handler: async ({ body, caller }) => ({ app: await apps.view(await apps.mine(body.appid, caller!.userId)) }),
  });
  ctx.route({
    ...UpdateAppMeta,
    audit: { action: 'oauth.app.update', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => ({
      app: await apps.update(body.appid, caller!.userId, {
        name: body.name,
        description: body.description,
        permissions: body.declared_permission,
        status: body.status,
      }),
    }),
  });
  ctx.route({
    ...DeleteApp,
    audit: { action: 'oauth.app.delete', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => (await apps.remove(body.appid, caller!.userId), {}),
  });
  ctx.route({
    ...PutOAuth2Configuration,
    audit: { action: 'oauth.app.configure', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => ({
      app: await apps.setConfig(body.appid, caller!.userId, body.oauth2_configuration),
    }),
  });
  ctx.route({
    ...CreateClientSecret,
    audit: { action: 'oauth.secret.create', target: 'appid' },
    auth: user,
    handler: ({ body, caller }) => apps.createSecret(body.appid, caller!.userId),
  });
  ctx.route({
    ...DeleteClientSecret,
    audit: { action: 'oauth.secret.delete', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => (
      await apps.deleteSecret(body.appid, caller!.userId, body.client_secret_id),
      {}
    ),
  });
  ctx.route({
    ...UploadPublicKey,
    audit: { action: 'oauth.key.add', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => ({
      fingerprint: await apps.uploadKey(body.appid, caller!.userId, body.public_key_pem),
    }),
  });
  ctx.route({
    ...GenerateKeyPair,
    audit: { action: 'oauth.key.add', target: 'appid' },
    auth: user,
    handler: ({ body, caller }) => apps.generateKey(body.appid, caller!.userId),
  });
  ctx.route({
    ...DeletePublicKey,
    audit: { action: 'oauth.key.delete', target: 'fingerprint' },
    auth: user,
    handler: async ({ body, caller }) => (await apps.deleteKey(body.appid, caller!.userId, body.fingerprint), {}),
  });
  ctx.route({
    ...AuthorizeAppWithDeclaredPermission,
    audit: { action: 'oauth.app.authorize', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => ({
      app: await apps.authorizeService(body.appid, caller!.userId, body.workspace_ids, (app, userId, spaces) =>
        grants.grant(app, userId, spaces),
      ),
    }),
  });

  // The consent page (a browser's request or a device's user code), then the answer.
  ctx.route({
    ...GetAppAuthorizationRequestInfo,
    auth: user,
    rateLimit: { max: 60, key: 'caller' },
    handler: ({ body, caller }) => grants.startCodeRequest(caller!.userId, body),
  });
  ctx.route({
    ...DeviceRequestInfo,
    auth: user,
    // A user code is short: guessing is slowed down per user.
    rateLimit: { max: 10, key: 'caller' },
    handler: ({ body, caller }) => grants.deviceRequest(caller!.userId, body.user_code),
  });
  ctx.route({
    ...AuthorizeConsent,
    audit: { action: 'oauth.consent' },
    auth: user,
    handler: async ({ body, caller }) => ({
      redirect_uri: await grants.consent(
        caller!.userId,
        body.authorize_key,
        body.consent,
        body.workspace_ids,
        body.authorized_organizations,
      ),
    }),
  });

  ctx.route({
    ...ListAuthorizedApps,
    auth: user,
    handler: async ({ caller }) => ({ apps: await grants.authorized(caller!.userId) }),
  });
  ctx.route({
    ...RevokeAppAuthorizedPermission,
    audit: { action: 'oauth.revoke', target: 'appid' },
    auth: user,
    handler: async ({ body, caller }) => (await grants.revoke(caller!.userId, body.appid), {}),
  });

  ctx.route({
    method: 'GET',
    path: '/v1/oauth-apps/:appid/authorizations',
    auth: user,
    summary: 'The users who authorized an OAuth app (its owner asks)',
    response: AppAuthorizations,
    params: z.object({ appid: z.string().min(1).max(40) }),
    query: z.object({
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
    }),
    handler: async ({ params, query, caller }) => {
      await apps.mine(params.appid, caller!.userId);
      return grants.authorizations(params.appid, query.page_num, query.page_size);
    },
  });
}
