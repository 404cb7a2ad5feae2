// ./tessera bench auth [calls=100000] [seconds=5]: what checking a token costs a request, for the four kinds of bearer
// token the open API takes: a personal access token (pat_), an OAuth app's access token for a user (oat_, web app),
// a service app's token (oat_, from a JWT) and a service identity's key (svc_).
// - the authenticators hook alone, in a studio in this process, on a token already seen: microseconds per check
//   (target < 20 µs), against the same hook on a request without credentials;
// - database statements of a published workflow run (which itself runs none) with each token: the first call and the
//   next ones (target: 0 once the token is known);
// - POST /v1/workflow/run under load with each token (16 connections): requests per second, and the check's share
//   of one request's time on one core (a studio in its own process, as ./tessera start runs it).
import { generateKeyPairSync } from 'node:crypto';
import { getJWTToken } from '@coze/api';
import { RequestAuthenticators } from '@tessera/sdk/server';
import { Agent } from '../tests/agent.ts';
import { startStudio } from '../tests/helpers.ts';
import { link, node, ref } from '../tests/workflow-kit.ts';
import { loadTest } from './load.ts';
import { startBenchStudio } from './studio.ts';

const TARGET_US = 20;

/** A user, a space, a published 3-node workflow and one token of each kind, made through the studio's API. */
async function setUp(url: string) {
  const user = new Agent(url);
  await user.post('/api/passport/web/email/register/v2', {
    email: `bench-${Date.now()}@example.com`,
    password: 'correct horse battery',
  });
  const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
  const { workflow_id } = await user.post('/api/workflow_api/create', { space_id: space, name: 'three nodes' });
  await user.post('/api/workflow_api/save', {
    space_id: space,
    workflow_id,
    schema: {
      nodes: [
        node('start', '1', { title: 'Start', outputs: [{ name: 'name', type: 'string', required: true }] }),
        node('text', '15', {
          title: 'Greet',
          inputs: [ref('name', 'start', ['name'])],
          settings: { mode: 'concat', template: 'Hello, {{name}}!' },
        }),
        node('end', '2', { title: 'End', inputs: [ref('message', 'text', ['output'])] }),
      ],
      links: [link('start', 'text'), link('text', 'end')],
    },
  });
  await user.post('/api/workflow_api/publish', {
    space_id: space,
    workflow_id,
    workflow_version: 'v1.0.0',
    force: true,
  });
  const perms = ['workflow.run'];
  const pat = (
    await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: perms }],
    })
  ).token as string;
  // A web app the same user authorizes, through the consent calls a browser would make.
  const redirect = 'http://localhost:9/cb';
  const web = (
    await user.post('/api/permission_api/app/create_app_meta', {
      name: 'bench web',
      client_type: 'web',
      declared_permission: perms,
      oauth2_configuration: { redirect_uris: [redirect] },
    })
  ).app.appid as string;
  const { client_secret } = await user.post('/api/permission_api/app/create_client_secret', { appid: web });
  const info = await user.post('/api/permission_api/app/get_app_authorization_request_info', {
    client_id: web,
    redirect_uri: redirect,
  });
  const answer = await user.post('/api/permission/oauth2/authorize_consent', {
    authorize_key: info.authorize_key,
    consent: true,
    workspace_ids: [space],
  });
  const code = new URL(answer.redirect_uri).searchParams.get('code')!;
  const exchanged = await fetch(`${url}/api/permission/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${client_secret}` },
    body: JSON.stringify({ grant_type: 'authorization_code', client_id: web, code, redirect_uri: redirect }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  // A service app with a key pair, authorized in the space, exchanging a JWT.
  const svc = (
    await user.post('/api/permission_api/app/create_app_meta', {
      name: 'bench service',
      client_type: 'service',
      declared_permission: perms,
    })
  ).app.appid as string;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const { fingerprint } = await user.post('/api/permission_api/app/upload_public_key', {
    appid: svc,
    public_key_pem: publicKey,
  });
  await user.post('/api/permission_api/app/authorize_app_with_declared_permission', {
    appid: svc,
    workspace_ids: [space],
  });
  const service = await getJWTToken({
    baseURL: url,
    appId: svc,
    aud: new URL(url).host,
    keyid: fingerprint,
    privateKey,
  });
  // A service identity of the space with a key.
  const identity = (
    await user.post('/api/permission_api/service/create', { space_id: space, name: 'bench-ci', permissions: perms })
  ).service;
  const { key } = await user.post('/api/permission_api/service/create_key', {
    space_id: space,
    service_id: identity.service_id,
    duration_day: 1,
  });
  const tokens: [string, string][] = [
    ['personal access token', pat],
    ['OAuth access token (web app)', exchanged.access_token],
    ['service app token (JWT)', service.access_token],
    ['service identity key', key],
  ];
  return { workflow_id, tokens };
}

export default async function authBench(args: string[]) {
  const calls = Number(args[0] ?? 100_000);
  const seconds = Number(args[1] ?? 5);
  console.log(`auth: token checks, POST /v1/workflow/run of a published 3-node workflow`);
  const hooks = new Map<string, number>();
  const local = await startStudio({ env: { TESSERA_LOG_LEVEL: 'silent' } });
  try {
    const { tokens } = await setUp(local.url);
    const hook = local.server.host.points.hook(RequestAuthenticators);
    const time = async (authorization?: string) => {
      const req = {
        headers: authorization ? { authorization: `Bearer ${authorization}` } : {},
        cookies: {},
        method: 'POST',
        url: '/v1/workflow/run',
        ip: '127.0.0.1',
      };
      for (let i = 0; i < 2000; i++) await hook.call(req);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await hook.call(req);
      return Number(process.hrtime.bigint() - t0) / 1000 / calls;
    };
    console.log(
      `  the authenticators hook, ${calls} checks each; no credentials (its floor): ${(await time()).toFixed(2)} µs per check`,
    );
    for (const [label, token] of tokens) hooks.set(label, await time(token));
  } finally {
    await local.close();
  }
  const studio = await startBenchStudio({ TESSERA_DIAGNOSTICS: '1' });
  try {
    const { workflow_id, tokens } = await setUp(studio.url);
    const body = JSON.stringify({ workflow_id, parameters: { name: 'Bench' } });
    const run = async (token: string) => {
      const r = await fetch(`${studio.url}/v1/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      if (r.status !== 200) throw new Error(`run answered ${r.status}: ${await r.text()}`);
      return Number(r.headers.get('x-tessera-statements') ?? -1);
    };
    for (const [label, token] of tokens) {
      const us = hooks.get(label)!;
      const first = await run(token);
      const next = await run(token);
      const load = loadTest({
        url: `${studio.url}/v1/workflow/run`,
        body,
        headers: { authorization: `Bearer ${token}` },
        connections: 16,
        seconds,
      });
      const share = (us / (1e6 / load.rps)) * 100;
      console.log(
        `  ${label}: ${us.toFixed(2)} µs per check   target < ${TARGET_US} µs   ratio ${(TARGET_US / us).toFixed(1)}x;` +
          ` statements: first run ${first}, next ${next} (target 0);` +
          ` ${Math.round(load.rps)} req/s at 16 connections (${load.tool}, ${load.errors} errors), the check ${share.toFixed(1)}% of a request's time on one core`,
      );
    }
  } finally {
    await studio.stop();
  }
}
