// MCP servers of a space (register, list their tools, try a tool) and exposing published workflows.
import { badRequest, forbidden, notFound, describeError, parseStoredStrings } from '@tessera/sdk';
import {
  HostInfoService,
  OutboundHttpService,
  SecretsService,
  containsText,
  describeOutboundError,
  type ServerContext,
} from '@tessera/sdk/server';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import { z } from 'zod';
import {
  CallServerTool,
  CreateServer,
  DeleteServer,
  ExposeBot,
  ExposeWorkflow,
  ListExposedBots,
  ListExposedWorkflows,
  ListServerTools,
  ListServers,
  ServerFields,
  UpdateServer,
} from '../shared/api.ts';
import type { McpToolInfo } from '../shared/index.ts';
import { callTool, describeMcpError, listTools, type ServerTarget } from './client.ts';
import { BotChatsService, BotsService } from '@tessera/ext-bots/shared';
import { answerBotMcp, answerMcp, endpointOf, notExposed, toolNameOf } from './expose.ts';

const Id = z.string().min(1).max(32);
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
/** What MCP's streamable HTTP answers a POST with: one JSON-RPC message, or a stream of them. */
const MCP_ANSWERS = ['application/json', 'text/event-stream'];

export interface ServerRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  transport: 'streamable_http' | 'sse' | 'stdio';
  url: string;
  command: string;
  args: string;
  secrets: string;
  secret_names: string;
  tools: string;
  tools_at: string | null;
  last_error: string | null;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

const now = () => new Date().toISOString();
const secs = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);
const MASK = '****';

export function makeStore(ctx: ServerContext<unknown>) {
  const secrets = () => ctx.service(SecretsService);
  const read = (r: ServerRow): { headers: Record<string, string>; env: Record<string, string> } =>
    r.secrets ? JSON.parse(secrets().decrypt(r.secrets)) : { headers: {}, env: {} };
  const get = async (id: string, spaceId?: string) => {
    const r = (await ctx.db.selectFrom('mcp_server').selectAll().where('id', '=', id).executeTakeFirst()) as
      ServerRow | undefined;
    if (!r || (spaceId && r.space_id !== spaceId)) throw notFound(`There is no MCP server ${id} in this space.`);
    return r;
  };
  const target = (r: ServerRow): ServerTarget => {
    const s = read(r);
    return {
      transport: r.transport,
      url: r.url,
      headers: s.headers,
      command: r.command,
      args: JSON.parse(r.args),
      env: s.env,
    };
  };
  const outbound = (u: string | URL, init?: RequestInit) =>
    ctx.service(OutboundHttpService).fetch(u, { ...init, timeoutMs: 60_000 });
  /** Lists the server's tools now and keeps them (and the failure, if it failed). */
  const refresh = async (r: ServerRow): Promise<McpToolInfo[]> => {
    try {
      const tools = await listTools(target(r), outbound);
      await ctx.db
        .updateTable('mcp_server')
        .set({ tools: JSON.stringify(tools), tools_at: now(), last_error: null })
        .where('id', '=', r.id)
        .execute();
      return tools;
    } catch (e) {
      const message = describeMcpError(e, r.url || undefined, describeOutboundError).slice(0, 1900);
      await ctx.db.updateTable('mcp_server').set({ last_error: message }).where('id', '=', r.id).execute();
      throw badRequest(`The MCP server "${r.name}" could not be reached or listed: ${message}`);
    }
  };
  const view = (r: ServerRow) => {
    const names = JSON.parse(r.secret_names) as { headers: string[]; env: string[] };
    return {
      server_id: r.id,
      space_id: r.space_id,
      name: r.name,
      description: r.description,
      transport: r.transport,
      url: r.url,
      command: r.command,
      args: parseStoredStrings(r.args, "an MCP server's arguments"),
      headers: names.headers.map((name) => ({ name, value: MASK })),
      env: names.env.map((name) => ({ name, value: MASK })),
      tools: JSON.parse(r.tools) as McpToolInfo[],
      tools_time: secs(r.tools_at) || null,
      last_error: r.last_error,
      creator_id: r.creator_id,
      create_time: secs(r.created_at),
      update_time: secs(r.updated_at),
    };
  };
  return { get, target, outbound, refresh, view, read, secrets };
}
type Store = ReturnType<typeof makeStore>;

export function registerRoutes(ctx: ServerContext<unknown>, store: Store) {
  /** Checks what a caller gave for the transport they chose; a value sent masked keeps the saved one. */
  const prepare = async (body: Partial<z.infer<typeof ServerFields>>, isAdmin: boolean, current?: ServerRow) => {
    const transport = body.transport ?? current?.transport ?? 'streamable_http';
    if (transport === 'stdio' && !isAdmin)
      throw forbidden('Only platform administrators may register an MCP server that runs a command (stdio).');
    const url = body.url ?? current?.url ?? '';
    const command = body.command ?? current?.command ?? '';
    if (transport === 'stdio') {
      if (!command) throw badRequest('Give the command that starts the server.', { field: 'command' });
    } else {
      if (!url) throw badRequest('Give the URL of the MCP server.', { field: 'url' });
      try {
        await ctx.service(OutboundHttpService).check(url);
      } catch (e) {
        throw badRequest(`The URL cannot be used: ${describeError(e)}`, { field: 'url' });
      }
    }
    const old = current ? store.read(current) : { headers: {}, env: {} };
    const merge = (pairs: { name: string; value: string }[] | undefined, prev: Record<string, string>) =>
      pairs ? Object.fromEntries(pairs.map((p) => [p.name, p.value === MASK ? (prev[p.name] ?? '') : p.value])) : prev;
    const headers = merge(body.headers, old.headers);
    const env = merge(body.env, old.env);
    return {
      transport,
      url: transport === 'stdio' ? '' : url,
      command: transport === 'stdio' ? command : '',
      args: JSON.stringify(transport === 'stdio' ? (body.args ?? (current ? JSON.parse(current.args) : [])) : []),
      secrets: store.secrets().encrypt(JSON.stringify({ headers, env })),
      secret_names: JSON.stringify({ headers: Object.keys(headers), env: Object.keys(env) }),
    };
  };

  ctx.route({
    ...CreateServer,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const fields = await prepare(body, caller!.isPlatformAdmin);
      const id = ctx.host.newId();
      await ctx.db
        .insertInto('mcp_server')
        .values({
          id,
          space_id: body.space_id,
          name: body.name,
          description: body.description ?? '',
          ...fields,
          tools: '[]',
          tools_at: null,
          last_error: null,
          creator_id: caller!.userId,
          created_at: now(),
          updated_at: now(),
        })
        .execute();
      const row = await store.get(id);
      // A server that cannot be listed is kept (it may be down now); the failure is shown with it.
      await store.refresh(row).catch(() => undefined);
      return store.view(await store.get(id));
    },
  });

  ctx.route({
    ...UpdateServer,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const current = await store.get(body.server_id, body.space_id);
      if (current.transport === 'stdio' && !caller!.isPlatformAdmin)
        throw forbidden('Only platform administrators may change an MCP server that runs a command.');
      const fields = await prepare(body, caller!.isPlatformAdmin, current);
      await ctx.db
        .updateTable('mcp_server')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...fields,
          updated_at: now(),
        })
        .where('id', '=', current.id)
        .execute();
      return store.view(await store.get(current.id));
    },
  });

  ctx.route({
    ...DeleteServer,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const r = await store.get(body.server_id, body.space_id);
      if (r.transport === 'stdio' && !caller!.isPlatformAdmin)
        throw forbidden('Only platform administrators may remove an MCP server that runs a command.');
      await ctx.db.deleteFrom('mcp_server').where('id', '=', r.id).execute();
      return {};
    },
  });

  ctx.route({
    ...ListServers,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = ctx.db.selectFrom('mcp_server').selectAll().where('space_id', '=', body.space_id);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      const rows = (await q.orderBy('updated_at', 'desc').limit(200).execute()) as ServerRow[];
      return { servers: rows.map(store.view) };
    },
  });

  ctx.route({
    ...ListServerTools,
    auth: inSpace,
    handler: async ({ body }) => {
      const r = await store.get(body.server_id, body.space_id);
      return { tools: await store.refresh(r) };
    },
  });

  ctx.route({
    ...CallServerTool,
    auth: inSpace,
    handler: async ({ body, signal }) => {
      const r = await store.get(body.server_id, body.space_id);
      const started = performance.now();
      try {
        const result = await callTool(store.target(r), store.outbound, body.tool, body.arguments, signal);
        return { ...result, duration_ms: Math.round(performance.now() - started) };
      } catch (e) {
        throw badRequest(`The tool call failed: ${describeMcpError(e, r.url || undefined, describeOutboundError)}`);
      }
    },
  });

  // ---- Published workflows as MCP servers
  const runner = () => ctx.service(WorkflowRunnerService);
  const publicUrl = () => ctx.service(HostInfoService).publicUrl;

  ctx.route({
    ...ExposeWorkflow,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const info = await runner().info(body.workflow_id, body.space_id);
      if (body.exposed && !info.latest_version)
        throw badRequest(`Publish "${info.name}" first: an MCP server runs the latest published version.`);
      await ctx.db.deleteFrom('mcp_exposed_workflow').where('workflow_id', '=', info.workflow_id).execute();
      if (body.exposed)
        await ctx.db
          .insertInto('mcp_exposed_workflow')
          .values({
            workflow_id: info.workflow_id,
            space_id: body.space_id,
            created_by: caller!.userId,
            created_at: now(),
          })
          .execute();
      return {
        exposed: body.exposed,
        endpoint: endpointOf(publicUrl(), info.workflow_id),
        tool_name: toolNameOf(info),
      };
    },
  });

  ctx.route({
    ...ListExposedWorkflows,
    auth: inSpace,
    handler: async ({ body }) => {
      const rows = (await ctx.db
        .selectFrom('mcp_exposed_workflow')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .orderBy('created_at', 'desc')
        .execute()) as { workflow_id: string; created_at: string }[];
      const items = [];
      for (const r of rows) {
        const info = await runner()
          .info(r.workflow_id, body.space_id)
          .catch(() => undefined);
        if (info)
          items.push({
            workflow_id: info.workflow_id,
            name: info.name,
            latest_version: info.latest_version,
            tool_name: toolNameOf(info),
            endpoint: endpointOf(publicUrl(), info.workflow_id),
            create_time: secs(r.created_at),
          });
      }
      return { items };
    },
  });

  const exposedSpace = async (req: { params: { workflow_id?: string } }) => {
    const id = String(req.params.workflow_id ?? '');
    const r = await ctx.db
      .selectFrom('mcp_exposed_workflow')
      .select('space_id')
      .where('workflow_id', '=', id)
      .executeTakeFirst();
    return r?.space_id ?? (await runner().spaceOf(id));
  };

  ctx.route({
    method: 'POST',
    path: '/v1/mcp/workflow/:workflow_id',
    produces: MCP_ANSWERS,
    auth: { space: exposedSpace },
    permission: 'workflow.run',
    rawResponse: true,
    summary: 'MCP (streamable HTTP, stateless) for an exposed published workflow: tools/list and tools/call',
    params: z.object({ workflow_id: Id }),
    handler: async (req, reply) => {
      const exposed = await ctx.db
        .selectFrom('mcp_exposed_workflow')
        .select('workflow_id')
        .where('workflow_id', '=', req.params.workflow_id)
        .executeTakeFirst();
      if (!exposed) throw notExposed();
      const info = await runner().info(req.params.workflow_id, req.spaceId!);
      await answerMcp(ctx, info, req, reply);
    },
  });

  // ---- Published bots as MCP servers (when the bots extension runs)
  const bots = () => {
    const b = ctx.optionalService(BotsService);
    const c = ctx.optionalService(BotChatsService);
    if (!b || !c) throw notFound('Bots are not enabled in this studio.');
    return { bots: b, chats: c };
  };
  const botEndpoint = (botId: string) => `${publicUrl().replace(/\/$/, '')}/v1/mcp/bot/${botId}`;
  const botTool = (b: { name: string; bot_id: string }) =>
    toolNameOf({ name: b.name, workflow_id: b.bot_id }).replace(/^workflow_/, 'bot_');

  ctx.route({
    ...ExposeBot,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots().bots.get(body.bot_id);
      if (!b || b.space_id !== body.space_id) throw notFound(`There is no bot ${body.bot_id} in this space.`);
      await ctx.db.deleteFrom('mcp_exposed_bot').where('bot_id', '=', b.bot_id).execute();
      if (body.exposed)
        await ctx.db
          .insertInto('mcp_exposed_bot')
          .values({ bot_id: b.bot_id, space_id: body.space_id, created_by: caller!.userId, created_at: now() })
          .execute();
      return { exposed: body.exposed, endpoint: botEndpoint(b.bot_id), tool_name: botTool(b) };
    },
  });

  ctx.route({
    ...ListExposedBots,
    auth: inSpace,
    handler: async ({ body }) => {
      const svc = ctx.optionalService(BotsService);
      if (!svc) return { items: [] };
      const rows = (await ctx.db
        .selectFrom('mcp_exposed_bot')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .orderBy('created_at', 'desc')
        .execute()) as { bot_id: string; created_at: string }[];
      const items = [];
      for (const r of rows) {
        const b = await svc.get(r.bot_id);
        if (b)
          items.push({
            bot_id: b.bot_id,
            name: b.name,
            tool_name: botTool(b),
            endpoint: botEndpoint(b.bot_id),
            create_time: secs(r.created_at),
          });
      }
      return { items };
    },
  });

  const botSpace = async (req: { params: { bot_id?: string } }) => {
    const r = await ctx.db
      .selectFrom('mcp_exposed_bot')
      .select('space_id')
      .where('bot_id', '=', String(req.params.bot_id ?? ''))
      .executeTakeFirst();
    return r?.space_id ?? (await ctx.optionalService(BotsService)?.get(String(req.params.bot_id ?? '')))?.space_id;
  };

  ctx.route({
    method: 'POST',
    path: '/v1/mcp/bot/:bot_id',
    produces: MCP_ANSWERS,
    auth: { space: botSpace },
    permission: 'bot.chat',
    rawResponse: true,
    summary: 'MCP (streamable HTTP, stateless) for a bot served over MCP: one tool that asks the published bot',
    params: z.object({ bot_id: Id }),
    handler: async (req, reply) => {
      const exposed = await ctx.db
        .selectFrom('mcp_exposed_bot')
        .select('bot_id')
        .where('bot_id', '=', req.params.bot_id)
        .executeTakeFirst();
      if (!exposed)
        throw badRequest('This bot is not served over MCP: serve it in the studio (MCP > Served over MCP) first.');
      const { bots: svc, chats } = bots();
      const b = await svc.get(req.params.bot_id);
      if (!b) throw notFound(`There is no bot ${req.params.bot_id}.`);
      await answerBotMcp(chats, b, req, reply);
    },
  });

  for (const [kind, permission] of [
    ['workflow', 'workflow.run'],
    ['bot', 'bot.chat'],
  ] as const) {
    for (const method of ['GET', 'DELETE'] as const) {
      ctx.route({
        method,
        path: `/v1/mcp/${kind}/:${kind}_id`,
        auth: { space: kind === 'workflow' ? exposedSpace : botSpace },
        permission,
        rawResponse: true,
        summary: `MCP ${method}: not offered (a stateless server; no session, no server-sent stream)`,
        // Always a 405 with a JSON-RPC error: there is no answer of success to describe.
        response: z.never(),
        handler: async (_req, reply) => {
          reply.status(405);
          reply.header('allow', 'POST');
          reply.send(
            JSON.stringify({
              jsonrpc: '2.0',
              error: {
                code: -32000,
                message: 'Method not allowed: this MCP server is stateless; send requests with POST.',
              },
              id: null,
            }),
            'application/json',
          );
        },
      });
    }
  }
}
