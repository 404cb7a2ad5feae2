// Apps as a resource kind of a space ('ui'): in the library and in projects, copied, exported and imported (with the
// custom components they draw; the workflows and bots they name follow when copied together), published with a
// project to the Web app channel, whose settings carry the app's access. The pickers of the builder: the space's
// published workflows and bots.
import {
  Connectors as ConnectorsPoint,
  ResourceKinds,
  listResourcesOfTable,
  type ServerContext,
} from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import { z } from 'zod';
import { Access, ListBots, ListWorkflows } from '../shared/api.ts';
import {
  BUILTIN_COMPONENTS,
  Dsl,
  IMPORTED_PREFIX,
  UiComponents,
  WEB_APP_CONNECTOR,
  type UiNode,
} from '../shared/dsl.ts';
import { typesOf } from './components.ts';
import { iso, type UiStore } from './store.ts';
import { texts } from './texts.ts';

const AppPackage = z.object({
  dsl: z.unknown(),
  app_kind: z.enum(['ui', 'agent']).default('ui'),
  bot_id: z.string().default(''),
  access: Access.default('members'),
  components: z
    .array(z.object({ type: z.string(), label: z.string(), props: z.record(z.string(), z.string()), html: z.string() }))
    .default([]),
});

/** The DSL with the workflows and bots it names renamed (a copy made together with them). */
export function renamed(dsl: Dsl, ids: Map<string, string>): Dsl {
  const walk = (n: UiNode): UiNode => ({
    ...n,
    props:
      n.type === 'chat' && ids.has(String(n.props.bot_id))
        ? { ...n.props, bot_id: ids.get(String(n.props.bot_id)) }
        : n.props,
    children: n.children?.map(walk),
  });
  return {
    ...dsl,
    pages: dsl.pages.map((p) => ({ ...p, root: walk(p.root) })),
    events: dsl.events.map((e) => ({
      ...e,
      action: { ...e.action, workflow_id: ids.get(e.action.workflow_id) ?? e.action.workflow_id },
    })),
  };
}

export function registerKind(ctx: ServerContext, store: UiStore): void {
  ctx.register(ConnectorsPoint, {
    id: WEB_APP_CONNECTOR,
    name: { 'en-US': 'Web app', 'zh-CN': '网页应用' },
    description: {
      'en-US': 'Apps of the UI builder served by the studio at /apps/<id> (and the bots their chats talk to).',
      'zh-CN': '由工作室在 /apps/<id> 提供的 UI 搭建应用（及其聊天组件对话的智能体）。',
    },
    kinds: ['ui', 'bot'],
    settings: z.object({
      /** Who may open the project's apps: the space's members, anyone signed in, or anyone. */
      access: Access.default('members'),
    }),
  });
  ctx.register(ResourceKinds, {
    kind: 'ui',
    list: (q) => listResourcesOfTable(ctx.db, { kind: 'ui', table: 'ui_app', published: 'published_version' }, q),
    spaceOf: async (id) =>
      (await store.db.selectFrom('ui_app').select('space_id').where('id', '=', id).executeTakeFirst())?.space_id,
    remove: async (id, spaceId) => {
      const a = await store.app(id);
      if (a.space_id === spaceId) await store.remove(a);
    },
    exportOf: async (id, spaceId) => {
      const a = await store.app(id);
      if (a.space_id !== spaceId) throw texts.error(404, 'noApp', { id });
      const dsl = Dsl.parse(JSON.parse(a.dsl));
      const imported = [...typesOf(dsl)].filter((t) => t.startsWith(IMPORTED_PREFIX));
      const components = [];
      for (const type of imported) {
        const c = await store.db
          .selectFrom('ui_component')
          .selectAll()
          .where('space_id', '=', a.space_id)
          .where('type', '=', type)
          .orderBy('version', 'desc')
          .executeTakeFirst();
        if (c)
          components.push({ type, label: c.label, props: JSON.parse(c.props) as Record<string, string>, html: c.html });
      }
      return [
        {
          kind: 'ui',
          id: a.id,
          name: a.name,
          description: a.description,
          icon_uri: a.icon_uri,
          data: { dsl, app_kind: a.app_kind, bot_id: a.bot_id, access: a.access, components },
          requires: {
            components: [...typesOf(dsl)].filter(
              (t) => !t.startsWith(IMPORTED_PREFIX) && !(BUILTIN_COMPONENTS as readonly string[]).includes(t),
            ),
          },
        },
      ];
    },
    missing: (pkg) =>
      (pkg.requires?.components ?? [])
        .filter((t) => !ctx.registry(UiComponents).get(t))
        .map((t) => `UI component ${t}`),
    importInto: async (pkg, opts) => {
      const data = AppPackage.safeParse(pkg.data);
      if (!data.success) throw texts.error(400, 'badDsl', { detail: data.error.issues[0]?.message ?? 'not an app' });
      // Its imported components come along when the space has none of that type.
      for (const c of data.data.components) {
        const have = await store.db
          .selectFrom('ui_component')
          .select('id')
          .where('space_id', '=', opts.spaceId)
          .where('type', '=', c.type)
          .executeTakeFirst();
        if (!have)
          await store.db
            .insertInto('ui_component')
            .values({
              id: store.newId(),
              space_id: opts.spaceId,
              type: c.type,
              version: 1,
              label: c.label.slice(0, 60),
              props: JSON.stringify(c.props),
              html: c.html,
              note: `imported with ${pkg.name}`.slice(0, 200),
              created_by: opts.userId,
              created_at: iso(),
            })
            .execute();
      }
      const dsl = renamed(Dsl.parse(data.data.dsl), opts.ids);
      const row = await store.create({
        spaceId: opts.spaceId,
        name: (opts.name ?? pkg.name).slice(0, 60),
        userId: opts.userId,
        dsl,
        description: pkg.description.slice(0, 400),
        kind: data.data.app_kind,
        botId: opts.ids.get(data.data.bot_id) ?? data.data.bot_id,
      });
      return row.id;
    },
    // Published with its project; the Web app channel's settings (when chosen) give its access.
    publish: async (id, spaceId, opts) => {
      const a = await store.app(id);
      if (a.space_id !== spaceId) throw texts.error(404, 'noApp', { id });
      const settings = opts.settings?.[WEB_APP_CONNECTOR] as
        { access?: 'public' | 'signed_in' | 'members' } | undefined;
      const out = await store.publish(a, opts.userId, { access: settings?.access, description: opts.description });
      return { version: String(out.published_version) };
    },
  });

  // The builder's pickers.
  ctx.route({
    ...ListWorkflows,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      const runner = ctx.optionalService(WorkflowRunnerService);
      const list = (await runner?.list?.(body.space_id, 200)) ?? [];
      return {
        workflows: list.map((w) => ({
          workflow_id: w.workflow_id,
          name: w.name,
          published: !!w.latest_version,
          outputs: w.outputs,
        })),
      };
    },
  });
  ctx.route({
    ...ListBots,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      const bots = ctx.optionalService(BotsService);
      if (!bots) return { bots: [] };
      const list = await bots.list(body.space_id);
      return {
        bots: await Promise.all(
          list.map(async (b) => ({
            bot_id: b.bot_id,
            name: b.name,
            web_app: !!(await bots.publication(b.bot_id))?.connectors.includes(WEB_APP_CONNECTOR),
          })),
        ),
      };
    },
  });
}
