// The Web SDK (server half): the loader script a site adds (/sdk/websdk.js), a React component module
// (/sdk/websdk-react.mjs), the chat page the widget frames (/embed/bot/{id} for a bot, /embed/app/{project}/
// {workflow} for a chat-flow of a project; framable only by the publication's allowed origins), and the chat
// it talks to (/api/websdk/chat), for what is published to the chat page and Web SDK connector, 999.
// Visitors are anonymous: an id in the frame's storage; the bot's (or project's) creator is the studio user
// the chats count for; calls are limited per address.
import { readFileSync } from 'node:fs';
import { badRequest, fieldOf, forbidden, languageOf, notFound } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import { BotChatsService, BotsService, Connectors } from '@tessera/ext-bots/shared';
import { ProjectsService } from '@tessera/ext-projects/shared';
import { WorkflowMode, WorkflowRunnerService } from '@tessera/workflow-sdk';
import { z } from 'zod';

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const TEXTS = {
  'en-US': { placeholder: 'Type a message', send: 'Send', missing: 'This chat is not available.' },
  'zh-CN': { placeholder: '输入消息', send: '发送', missing: '该聊天暂不可用。' },
};

/**
 * An Origin header as scheme://host[:port] (lower case, default port dropped), or undefined when it is not
 * exactly one: `https://evil.net//127.0.0.1:4303` or an origin with a path never matches anything.
 */
function originOf(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin === value.toLowerCase() ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Sites the publication lets frame the chat (Web SDK settings of connector 999). */
const allowedOrigins = (settings: Record<string, unknown>) =>
  ((settings[Connectors.ChatPage] as { allowed_origins?: string[] } | undefined)?.allowed_origins ?? []).map((o) =>
    o.toLowerCase(),
  );

export default defineExtension({
  id: 'websdk',
  register(ctx) {
    const loader = asset('loader.js');
    const react = asset('react.mjs');
    const embed = asset('embed.js');
    const bots = () => ctx.service(BotsService);
    const publication = async (botId: string) => {
      const p = await bots().publication(botId);
      return p && p.connectors.includes(Connectors.ChatPage) ? p : undefined;
    };
    /** A chat-flow of a project whose last publication went to 999 and published it (projects and workflows on). */
    const appTarget = async (projectId: string, workflowId: string) => {
      const projects = ctx.optionalService(ProjectsService);
      const runner = ctx.optionalService(WorkflowRunnerService);
      const project = projects && runner ? await projects.get(projectId) : undefined;
      const p = project && (await projects!.publication(project.id));
      if (!project || !p || !p.connectors.includes(Connectors.ChatPage)) return undefined;
      if (!p.results.some((r) => r.res_type === 'workflow' && r.res_id === workflowId && r.status === 'published'))
        return undefined;
      const info = await runner!.info(workflowId, project.space_id).catch(() => undefined);
      if (!info || info.flow_mode !== WorkflowMode.ChatFlow || !info.latest_version) return undefined;
      return { project, workflow: info, settings: p.connector_settings };
    };
    const csp = (settings: Record<string, unknown> | undefined) =>
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors ${settings ? ["'self'", ...allowedOrigins(settings)].join(' ') : "'none'"}`;
    const page = (lang: 'en-US' | 'zh-CN', title: string, data: Record<string, string>) => {
      const t = TEXTS[lang];
      const attrs = Object.entries(data)
        .map(([k, v]) => `data-${k}="${escape(v)}"`)
        .join(' ');
      return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>
<style>body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",sans-serif;color:#1d2129;display:flex;flex-direction:column;height:100vh}header{padding:12px 16px;border-bottom:1px solid #e5e6eb;font-weight:600}#messages{flex:1;overflow:auto;padding:12px 16px}.msg{max-width:85%;margin:6px 0;padding:8px 12px;border-radius:10px;white-space:pre-wrap;word-break:break-word}.user{margin-left:auto;background:#165dff;color:#fff}.assistant{background:#f2f3f5}.pending:empty::after{content:'…'}.error{background:#ffece8;color:#cb2634}form{display:flex;gap:8px;padding:12px;border-top:1px solid #e5e6eb}input{flex:1;padding:8px 10px;border:1px solid #e5e6eb;border-radius:8px;font:inherit}button{padding:8px 14px;border:none;border-radius:8px;background:#165dff;color:#fff;font:inherit;cursor:pointer}button:disabled{opacity:.5}.card{background:#fff;border:1px solid #e5e6eb;white-space:normal;display:flex;flex-direction:column;gap:6px}.card-title{font-weight:600}.card-text.title{font-size:16px;font-weight:600}.card-text.caption{font-size:12px;color:#86909c}.card-image{width:100%;max-height:200px;object-fit:cover;border-radius:4px}.card-row{display:flex;flex-wrap:wrap;gap:6px}.card-column,.card-list{display:flex;flex-direction:column;gap:6px}.card-item{padding:6px 8px;background:#f7f8fa;border-radius:6px}.card-button{align-self:flex-start;padding:4px 10px;font-size:13px;border-radius:6px;background:#165dff;color:#fff;text-decoration:none}.card-table{border-collapse:collapse;font-size:12px}.card-table td,.card-table th{border-bottom:1px solid #e5e6eb;padding:3px 6px;text-align:left}.card-divider{border:0;border-top:1px solid #e5e6eb;width:100%}</style></head>
<body><div id="tessera-chat" ${attrs} hidden></div><header>${escape(title)}</header><div id="messages" aria-live="polite"></div>
<form id="form"><input id="input" autocomplete="off" maxlength="4000" placeholder="${escape(t.placeholder)}" aria-label="${escape(t.placeholder)}"><button id="send" type="submit">${escape(t.send)}</button></form>
<script src="/sdk/embed.js"></script></body></html>`;
    };
    const missingPage = (lang: 'en-US' | 'zh-CN') =>
      `<!doctype html><meta charset="utf-8"><p style="font:14px sans-serif;color:#86909c;padding:16px">${escape(TEXTS[lang].missing)}</p>`;
    /** The widget's frame is the studio's own page; other sites only through the publication's list. */
    const checkOrigin = (headers: Record<string, unknown>, settings: Record<string, unknown>, what: string) => {
      const origin = originOf(String(headers.origin ?? ''));
      const own = origin && origin.slice(origin.indexOf('//') + 2) === String(headers.host ?? '').toLowerCase();
      if (!origin || (!own && !allowedOrigins(settings).map(originOf).includes(origin)))
        throw forbidden(
          `This site may not use this chat: add it to the allowed origins of the ${what}'s Web SDK publication.`,
        );
    };

    for (const [path, body, type] of [
      ['/sdk/websdk.js', loader, 'text/javascript; charset=utf-8'],
      ['/sdk/websdk-react.mjs', react, 'text/javascript; charset=utf-8'],
      ['/sdk/embed.js', embed, 'text/javascript; charset=utf-8'],
    ] as const) {
      ctx.route({
        method: 'GET',
        path,
        produces: 'text/javascript',
        auth: 'anonymous',
        rawResponse: true,
        summary:
          path === '/sdk/embed.js'
            ? "The script of the Web SDK's chat page"
            : "The Web SDK for sites that embed a bot's chat",
        handler: (_req, reply) => {
          reply.header('cache-control', 'public, max-age=300');
          // Loaded by other sites' pages.
          reply.header('access-control-allow-origin', '*');
          reply.header('cross-origin-resource-policy', 'cross-origin');
          reply.send(body, type);
        },
      });
    }

    ctx.route({
      method: 'GET',
      path: '/embed/bot/:bot_id',
      produces: 'text/html',
      auth: 'anonymous',
      rawResponse: true,
      summary: "A published bot's chat for the Web SDK's frame; only the publication's allowed origins may frame it",
      params: z.object({ bot_id: z.string().min(1).max(32) }),
      handler: async ({ params, headers }, reply) => {
        const lang = languageOf(headers['accept-language']);
        const p = await publication(params.bot_id);
        reply.header('content-security-policy', csp(p?.connector_settings));
        reply.header('cache-control', 'no-store');
        if (!p) {
          reply.status(404);
          return reply.send(missingPage(lang), 'text/html; charset=utf-8');
        }
        reply.send(
          page(lang, p.name, { 'bot-id': p.bot_id, prologue: String(p.onboarding?.prologue ?? '') }),
          'text/html; charset=utf-8',
        );
      },
    });

    ctx.route({
      method: 'GET',
      path: '/embed/app/:project_id/:workflow_id',
      produces: 'text/html',
      auth: 'anonymous',
      rawResponse: true,
      summary:
        "A project's published chat-flow for the Web SDK's frame; only the project publication's allowed origins may frame it",
      params: z.object({ project_id: z.string().min(1).max(32), workflow_id: z.string().min(1).max(32) }),
      handler: async ({ params, headers }, reply) => {
        const lang = languageOf(headers['accept-language']);
        const target = await appTarget(params.project_id, params.workflow_id);
        reply.header('content-security-policy', csp(target?.settings));
        reply.header('cache-control', 'no-store');
        if (!target) {
          reply.status(404);
          return reply.send(missingPage(lang), 'text/html; charset=utf-8');
        }
        reply.send(
          page(lang, target.workflow.name, { 'app-id': target.project.id, 'workflow-id': params.workflow_id }),
          'text/html; charset=utf-8',
        );
      },
    });

    ctx.route({
      method: 'POST',
      path: '/api/websdk/chat',
      auth: 'anonymous',
      stream: true,
      rateLimit: { max: 30, windowMs: 60_000, key: 'ip' },
      summary:
        "A visitor's message to a bot (bot_id) or a project's chat-flow (app_id and workflow_id) published to the Web SDK, answered as a stream of Coze's chat events",
      body: z.object({
        bot_id: z.string().min(1).max(32).optional(),
        app_id: z.string().min(1).max(32).optional(),
        workflow_id: z.string().min(1).max(32).optional(),
        visitor_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'visitor_id is the id the widget keeps for this visitor.'),
        query: z.string().trim().min(1, 'Write a message first.').max(4000),
        conversation_id: z.string().max(32).optional(),
      }),
      handler: async ({ body, headers, logId, signal }, reply) => {
        const chats = ctx.service(BotChatsService);
        const visitor = `web:${body.visitor_id}`;
        if (!body.bot_id) {
          if (!body.app_id || !body.workflow_id)
            throw badRequest('Give bot_id (a bot), or app_id and workflow_id (a chat-flow of a project).', {
              field: 'bot_id',
            });
          const target = await appTarget(body.app_id, body.workflow_id);
          if (!target) throw notFound('This chat-flow is not published to the Web SDK with its project.');
          checkOrigin(headers, target.settings, 'project');
          const started = await chats
            .start({
              spaceId: target.project.space_id,
              userId: target.project.creator_id,
              ownerId: target.workflow.workflow_id,
              mode: 'chatflow',
              settings: { workflow_id: target.workflow.workflow_id, workflow_name: target.workflow.name },
              conversationId: body.conversation_id,
              endUserId: visitor,
              connectorId: Connectors.ChatPage,
              messages: [{ role: 'user', content: body.query }],
              customVariables: {},
              logId,
            })
            .catch((e) => {
              if (fieldOf(e, 'status') === 400) throw badRequest('This conversation is not yours; start a new one.');
              throw e;
            });
          return chats.stream(started.chat_id, reply.sse(), signal);
        }
        const p = await publication(body.bot_id);
        if (!p) throw notFound('This bot is not published to the Web SDK.');
        checkOrigin(headers, p.connector_settings, 'bot');
        const started = await chats
          .startPublished({
            botId: p.bot_id,
            userId: p.creator_id,
            endUserId: visitor,
            message: body.query,
            conversationId: body.conversation_id,
            logId,
            connectorId: Connectors.ChatPage,
          })
          .catch((e) => {
            if (fieldOf(e, 'status') === 400) throw badRequest('This conversation is not yours; start a new one.');
            throw e;
          });
        await chats.stream(started.chat_id, reply.sse(), signal);
      },
    });
  },
});
