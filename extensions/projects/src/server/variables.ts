// A project's variables (Coze's app variables, channel 5): GET /api/memory/project/variable/meta_list and
// POST meta_update. Values are per end user and kept by the variables skill's store (keyed by the project).
import { badRequest, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import type { ProjectVariable } from '../shared/index.ts';
import { now, type ProjectStore } from './store.ts';

/** Coze's VariableChannel: System 2, APP 5 (project variables); VariableType.KVVariable 1. */
const APP = 5;
const SYSTEM = 2;
const KV = 1;
const MAX_VARIABLES = 50;

const Variable = z.object({
  Keyword: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,49}$/, 'A variable name has letters, digits and _ (not first), at most 50.'),
  DefaultValue: z.string().max(2000, 'A default value is at most 2000 characters.').default(''),
  Description: z.string().max(300, 'A description is at most 300 characters.').default(''),
  Enable: z.boolean().default(true),
  IsReadOnly: z.boolean().default(false),
  Schema: z.string().max(4000).default('{"type":"string"}'),
  // Accepted as Coze's client sends them; the channel is always APP here.
  VariableType: z.number().int().optional(),
  Channel: z.number().int().optional(),
  EffectiveChannelList: z.array(z.string()).optional(),
});

/** Values every project has, read-only (Coze's system group). */
const SYSTEM_VARIABLES = [
  { Keyword: 'sys_uuid', Description: 'The end user' },
  { Keyword: 'sys_connector_id', Description: 'The channel (1024 API, 999 chat page and Web SDK)' },
  { Keyword: 'sys_time', Description: 'The time of the call (ISO 8601, UTC)' },
];

const StoredList = z.array(z.record(z.string(), z.unknown()));
/** A project's variables as stored; a value that cannot be read is an error naming it, never an empty list. */
export const parseVariables = (text: string): ProjectVariable[] =>
  parseStoredJson(text || '[]', "The project's variables", StoredList) as unknown as ProjectVariable[];

const meta = (v: ProjectVariable, channel = APP) => ({
  Keyword: v.Keyword,
  DefaultValue: v.DefaultValue,
  VariableType: KV,
  Channel: channel,
  Description: v.Description,
  Enable: v.Enable,
  EffectiveChannelList: [],
  Schema: v.Schema,
  IsReadOnly: v.IsReadOnly,
});

export function registerVariableRoutes(ctx: ServerContext<unknown>, store: ProjectStore) {
  const spaceOf = async (id: unknown) => (await store.get(String(id ?? ''))).space_id;

  ctx.route({
    method: 'GET',
    path: '/api/memory/project/variable/meta_list',
    auth: { space: (r: { query: Record<string, unknown> }) => spaceOf(r.query?.ProjectID) },
    summary: "A project's variables (the draft's, or a published version's with version=) and the system ones, grouped",
    query: z.object({ ProjectID: z.string().min(1).max(32), version: z.string().max(32).optional() }),
    handler: async ({ query }) => {
      const p = await store.get(query.ProjectID);
      let variables: ProjectVariable[];
      if (query.version && query.version !== '0') {
        const r = await ctx.db
          .selectFrom('projects_publish')
          .select('variables')
          .where('project_id', '=', p.id)
          .where('version', '=', query.version)
          .executeTakeFirst();
        if (!r) throw badRequest(`The project has no published version ${query.version}.`, { field: 'version' });
        variables = parseVariables(r.variables as string);
      } else variables = parseVariables(p.variables);
      const system = SYSTEM_VARIABLES.map((s) =>
        meta({ ...s, DefaultValue: '', Enable: true, IsReadOnly: true, Schema: '{"type":"string"}' }, SYSTEM),
      );
      return {
        VariableList: variables.map((v) => meta(v)),
        CanEdit: !query.version || query.version === '0',
        GroupConf: [
          {
            GroupName: 'app',
            GroupDesc: 'Variables of the project: every resource in it reads them; values are kept per end user.',
            GroupExtDesc: '',
            VarInfoList: variables.map((v) => meta(v)),
            SubGroupList: [],
            IsReadOnly: false,
            DefaultChannel: APP,
          },
          {
            GroupName: 'system',
            GroupDesc: 'Set by the studio at each call; read-only.',
            GroupExtDesc: '',
            VarInfoList: system,
            SubGroupList: [],
            IsReadOnly: true,
            DefaultChannel: SYSTEM,
          },
        ],
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/project/variable/meta_update',
    resource: { kind: 'project', id: 'ProjectID', write: true },
    auth: { space: (r: { body: Record<string, unknown> }) => spaceOf(r.body?.ProjectID) },
    summary: "Replace a project's variables (names unique; system names refused)",
    body: z.object({
      ProjectID: z.string().min(1).max(32),
      VariableList: z.array(Variable).max(MAX_VARIABLES, `A project has at most ${MAX_VARIABLES} variables.`),
    }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.ProjectID);
      const seen = new Set<string>();
      for (const [i, v] of body.VariableList.entries()) {
        if (seen.has(v.Keyword))
          throw badRequest(`Two variables are named ${v.Keyword}.`, { field: `VariableList.${i}.Keyword` });
        if (SYSTEM_VARIABLES.some((s) => s.Keyword === v.Keyword) || v.Keyword.startsWith('sys_'))
          throw badRequest(`${v.Keyword} is a system variable's name (names starting with sys_ are the studio's).`, {
            field: `VariableList.${i}.Keyword`,
          });
        try {
          JSON.parse(v.Schema);
        } catch {
          throw badRequest(`The schema of ${v.Keyword} is not JSON.`, { field: `VariableList.${i}.Schema` });
        }
        seen.add(v.Keyword);
      }
      const variables: ProjectVariable[] = body.VariableList.map((v) => ({
        Keyword: v.Keyword,
        DefaultValue: v.DefaultValue,
        Description: v.Description,
        Enable: v.Enable,
        IsReadOnly: v.IsReadOnly,
        Schema: v.Schema,
      }));
      await ctx.db
        .updateTable('projects_project')
        .set({ variables: JSON.stringify(variables), updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      await store.record(p.id, 'variables', caller!.userId);
      return {};
    },
  });
}
