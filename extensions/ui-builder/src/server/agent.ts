// The agent app builder (/api/agent_app_builder/v1/app/...): apps around a bot (a landing page, the chat, a form that
// runs a workflow) made from a template or written by a chat model from a description, texts written by a model,
// the bot changed, previews, publications (each version kept) and their records. They are apps of the UI builder:
// edited in the builder, served at /apps/<id>.
import { languageOf } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { WorkflowRunnerService, type FieldDecl } from '@tessera/workflow-sdk';
import { z } from 'zod';
import {
  AgentAppCreate,
  AgentAppGet,
  AgentAppPreview,
  AgentAppUpdate,
  AgentPublishCreate,
  AgentPublishGet,
  AgentPublishList,
  AiGenerateContent,
  GenAgentApp,
  UpdateAgentBot,
} from '../shared/api.ts';
import { Dsl, type UiNode } from '../shared/dsl.ts';
import { packageVersionDsl } from './packages.ts';
import { iso, secs, type PublishRow, type UiStore } from './store.ts';
import { texts } from './texts.ts';

// ---------------------------------------------------------------- an agent app's pages from its content
// A landing page (title, tagline, what it does), the chat with its bot (welcome, questions to start with), and, with
// a workflow, a form that runs it and shows its answer.

/** What a model writes for an agent app (everything else is the template's). */
export const AgentContent = z.object({
  name: z.string().trim().min(1).max(60).catch('Agent app'),
  title: z.string().trim().max(120).catch(''),
  tagline: z.string().trim().max(400).catch(''),
  features: z.array(z.string().trim().max(200)).max(8).catch([]),
  welcome: z.string().trim().max(600).catch(''),
  suggestions: z.array(z.string().trim().max(200)).max(6).catch([]),
  form_title: z.string().trim().max(120).catch(''),
});
export type AgentContent = z.output<typeof AgentContent>;

const md = (s: string) => s.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);

export function agentAppDsl(
  c: AgentContent,
  botId: string,
  workflow?: { workflow_id: string; inputs: FieldDecl[]; outputs: string[] },
  lang: 'en-US' | 'zh-CN' = 'en-US',
): Dsl {
  const zh = lang === 'zh-CN';
  const text = (id: string, content: string, size = 'body'): UiNode => ({ id, type: 'text', props: { content, size } });
  const landing: UiNode[] = [
    text('title', c.title || c.name, 'title'),
    ...(c.tagline ? [text('tagline', c.tagline, 'subtitle')] : []),
    ...(c.features.length
      ? [{ id: 'features', type: 'markdown', props: { content: c.features.map((f) => `- ${md(f)}`).join('\n') } }]
      : []),
  ];
  const chat: UiNode[] = [
    {
      id: 'chat',
      type: 'chat',
      props: { bot_id: botId, welcome: c.welcome, placeholder: zh ? '输入你的问题' : 'Ask a question' },
    },
    ...(c.suggestions.length
      ? [
          {
            id: 'suggestions',
            type: 'markdown',
            props: {
              content: `${zh ? '**可以这样问：**' : '**Try asking:**'}\n\n${c.suggestions.map((s) => `- ${md(s)}`).join('\n')}`,
            },
          },
        ]
      : []),
  ];
  const pages: Dsl['pages'] = [
    {
      page_id: 'home',
      name: zh ? '首页' : 'Home',
      path: '',
      root: { id: 'root', type: 'column', props: {}, children: landing },
    },
    {
      page_id: 'talk',
      name: zh ? '对话' : 'Chat',
      path: 'chat',
      root: { id: 'talk_root', type: 'column', props: {}, children: chat },
    },
  ];
  const events: Dsl['events'] = [];
  const variables: Dsl['variables'] = [];
  if (workflow) {
    const fields = workflow.inputs.slice(0, 12);
    const answer = workflow.outputs[0] ?? 'output';
    variables.push({ name: 'answer', default: '' });
    pages.push({
      page_id: 'form_page',
      name: zh ? '表单' : 'Form',
      path: 'form',
      root: {
        id: 'form_root',
        type: 'column',
        props: {},
        children: [
          text('form_title', c.form_title || (zh ? '填写后提交' : 'Fill in and submit'), 'subtitle'),
          {
            id: 'form1',
            type: 'form',
            props: {},
            children: fields.map((f, i) => ({
              id: `field${i + 1}`,
              type: 'input',
              props: {
                label: f.description || f.name,
                kind: f.type === 'integer' || f.type === 'number' ? 'number' : 'text',
              },
            })),
          },
          { id: 'answer_text', type: 'markdown', props: { content: '{{answer}}' } },
        ],
      },
    });
    events.push({
      event_id: 'form1_submit',
      component_id: 'form1',
      on: 'submit',
      action: {
        type: 'workflow',
        workflow_id: workflow.workflow_id,
        inputs: Object.fromEntries(
          fields.map((f, i) => [f.name, { from: 'component' as const, component_id: `field${i + 1}` }]),
        ),
        outputs: { answer },
      },
    });
  }
  return Dsl.parse({ variables, pages, events });
}

/** The JSON object in a model's answer (fenced or not), or undefined. */
export function jsonIn(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- the routes

const SYSTEM = `You write the content of a small web app that puts an AI assistant (a bot) in front of people.
Answer with one JSON object and nothing else:
{"name": "the app's name, 2-5 words", "title": "the landing page's headline", "tagline": "one sentence under it",
 "features": ["3 to 5 short lines: what the app helps with"], "welcome": "the bot's first words in the chat",
 "suggestions": ["3 questions a visitor could ask"], "form_title": "a title for a form that starts the task"}
Write in the language of the description. Plain text only: no HTML, no links.`;

const publication = (p: PublishRow) => ({
  version: Number(p.version),
  access: p.access,
  description: p.description,
  created_by: p.created_by,
  created_at: secs(p.created_at),
});

export function registerAgentRoutes(ctx: ServerContext, store: UiStore): void {
  const ofApp = {
    space: async (r: { body?: { app_id?: unknown } }) => (await store.app(String(r.body?.app_id ?? ''))).space_id,
  };
  /** The bot, of the space (a clear refusal otherwise). */
  const botOf = async (spaceId: string, botId: string) => {
    const bots = ctx.optionalService(BotsService);
    if (!bots) throw texts.error(400, 'botsOff');
    const b = await bots.get(botId);
    if (!b || b.space_id !== spaceId) throw texts.error(404, 'noBot', { id: botId });
    return b;
  };
  const workflowOf = async (spaceId: string, workflowId?: string) => {
    if (!workflowId) return undefined;
    const runner = ctx.optionalService(WorkflowRunnerService);
    if (!runner) throw texts.error(400, 'workflowsOff');
    const info = await runner.info(workflowId, spaceId);
    const outputs = (await runner.list?.(spaceId, 200))?.find((w) => w.workflow_id === workflowId)?.outputs ?? [];
    return { workflow_id: info.workflow_id, inputs: info.inputs, outputs };
  };
  /** A chat model's answer to one request (the space's default chat model unless one is named); tokens recorded. */
  const write = async (
    spaceId: string,
    modelId: string | undefined,
    system: string,
    request: string,
    signal: AbortSignal,
  ) => {
    const models = ctx.optionalService(ModelsService);
    if (!models) throw texts.error(400, 'modelsOff');
    const id = modelId || (await models.defaultModel(spaceId, 'chat'))?.model_id;
    if (!id) throw texts.error(400, 'noModel');
    const model = await models.get(spaceId, id);
    const { generateText } = await import('ai');
    const r = await generateText({
      model: await model.chat(),
      system,
      messages: [{ role: 'user', content: request }],
      temperature: 0.7,
      maxRetries: 1,
      abortSignal: signal,
    });
    await models
      .recordUsage({
        space_id: spaceId,
        model_id: id,
        input_tokens: r.usage?.inputTokens ?? 0,
        output_tokens: r.usage?.outputTokens ?? 0,
        source: 'ui-builder',
      })
      .catch(() => undefined);
    return r.text;
  };

  ctx.route({
    ...AgentAppCreate,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller, headers }) => {
      let dsl: Dsl;
      let botId = body.bot_id;
      if (body.package_id) {
        const v = await packageVersionDsl(ctx, store, body.package_id, caller!.userId, body.package_version);
        dsl = v.dsl;
        botId ||= v.bot_id;
      } else {
        if (!botId) throw texts.error(400, 'chooseBot');
        await botOf(body.space_id, botId);
        dsl = agentAppDsl(
          AgentContent.parse({ name: body.name, title: body.name, tagline: body.description }),
          botId,
          await workflowOf(body.space_id, body.workflow_id),
          languageOf(headers['accept-language']),
        );
      }
      const row = await store.create({
        spaceId: body.space_id,
        name: body.name,
        userId: caller!.userId,
        dsl,
        description: body.description,
        kind: 'agent',
        botId,
      });
      return { app: store.view(row) };
    },
  });
  ctx.route({
    ...GenAgentApp,
    auth: { space: { from: 'body', field: 'space_id' } },
    rateLimit: { max: 20, key: 'caller' },
    handler: async ({ body, caller, headers, signal }) => {
      const bot = await botOf(body.space_id, body.bot_id);
      const workflow = await workflowOf(body.space_id, body.workflow_id);
      const answer = await write(
        body.space_id,
        body.model_id,
        SYSTEM,
        [`Description: ${body.description}`, `The bot: ${bot.name}. ${bot.description}`].join('\n'),
        signal,
      );
      const raw = jsonIn(answer);
      if (!raw || typeof raw !== 'object') throw texts.error(400, 'genUnreadable');
      const content = AgentContent.parse(raw);
      const lang = /[\u4e00-\u9fff]/.test(body.description) ? 'zh-CN' : languageOf(headers['accept-language']);
      const row = await store.create({
        spaceId: body.space_id,
        name: content.name,
        userId: caller!.userId,
        dsl: agentAppDsl(content, bot.bot_id, workflow, lang),
        description: content.tagline.slice(0, 400),
        kind: 'agent',
        botId: bot.bot_id,
      });
      return { app: store.view(row) };
    },
  });
  ctx.route({
    ...AiGenerateContent,
    auth: ofApp,
    rateLimit: { max: 60, key: 'caller' },
    handler: async ({ body, signal }) => {
      const a = await store.app(body.app_id);
      const how =
        body.format === 'title'
          ? 'Write one short headline (at most 10 words).'
          : body.format === 'markdown'
            ? 'Write Markdown (headings, lists, emphasis; no HTML, no images).'
            : 'Write a short paragraph of plain text.';
      const text = await write(
        a.space_id,
        body.model_id,
        `You write texts for the web app "${a.name}" (${a.description || 'no description'}). ${how} Answer with the text only, in the language of the request.`,
        body.instruction,
        signal,
      );
      return {
        content: text
          .trim()
          .replace(/^```\w*\n?|```$/g, '')
          .trim()
          .slice(0, 20_000),
      };
    },
  });
  ctx.route({
    ...AgentAppGet,
    auth: ofApp,
    handler: async ({ body }) => ({ app: store.view(await store.app(body.app_id)) }),
  });
  ctx.route({
    ...AgentAppUpdate,
    auth: ofApp,
    handler: async ({ body }) => {
      const a = await store.app(body.app_id);
      await store.db
        .updateTable('ui_app')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          updated_at: iso(),
        })
        .where('id', '=', a.id)
        .execute();
      return { app: store.view(await store.app(a.id)) };
    },
  });
  ctx.route({
    ...UpdateAgentBot,
    auth: ofApp,
    handler: async ({ body }) => {
      const a = await store.app(body.app_id);
      await botOf(a.space_id, body.bot_id);
      const dsl = Dsl.parse(JSON.parse(a.dsl));
      const walk = (n: UiNode): UiNode => ({
        ...n,
        props: n.type === 'chat' ? { ...n.props, bot_id: body.bot_id } : n.props,
        children: n.children?.map(walk),
      });
      const next = { ...dsl, pages: dsl.pages.map((p) => ({ ...p, root: walk(p.root) })) };
      await store.db
        .updateTable('ui_app')
        .set({
          bot_id: body.bot_id,
          dsl: JSON.stringify(next),
          version_code: Number(a.version_code) + 1,
          updated_at: iso(),
        })
        .where('id', '=', a.id)
        .execute();
      return { app: store.view(await store.app(a.id)) };
    },
  });
  ctx.route({
    ...AgentAppPreview,
    auth: ofApp,
    handler: async ({ body }) => {
      const a = await store.app(body.app_id);
      return { dsl: Dsl.parse(JSON.parse(a.dsl)), builder_path: `/ui-apps/${a.id}` };
    },
  });
  ctx.route({
    ...AgentPublishCreate,
    auth: ofApp,
    handler: async ({ body, caller }) => {
      const a = await store.publish(await store.app(body.app_id), caller!.userId, {
        access: body.access,
        description: body.description,
      });
      return { app: store.view(a), path: `/apps/${a.id}`, version: Number(a.published_version) };
    },
  });
  ctx.route({
    ...AgentPublishList,
    auth: ofApp,
    handler: async ({ body }) => ({
      publications: (
        await store.db
          .selectFrom('ui_publish')
          .selectAll()
          .where('ui_id', '=', body.app_id)
          .orderBy('version', 'desc')
          .limit(100)
          .execute()
      ).map(publication),
    }),
  });
  ctx.route({
    ...AgentPublishGet,
    auth: ofApp,
    handler: async ({ body }) => {
      const p = await store.db
        .selectFrom('ui_publish')
        .selectAll()
        .where('ui_id', '=', body.app_id)
        .where('version', '=', body.version)
        .executeTakeFirst();
      if (!p) throw texts.error(404, 'noPublication', { id: body.app_id, version: String(body.version) });
      return { publication: publication(p), dsl: Dsl.parse(JSON.parse(p.dsl)) };
    },
  });
}
