// A project's variables (Coze's app variables, channel 5): GET /api/memory/project/variable/meta_list and
// POST meta_update. Values are per end user and kept by the variables skill's store (keyed by the project).
import { badRequest, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { ListProjectVariables, ProjectVariableView, UpdateProjectVariables, type VariableMeta } from '../shared/api.ts';
import type { ProjectVariable } from '../shared/index.ts';
import { now, type ProjectStore } from './store.ts';

/** Coze's VariableChannel: System 2, APP 5 (project variables); VariableType.KVVariable 1. */
const APP = 5;
const SYSTEM = 2;
const KV = 1;

/** Values every project has, read-only (Coze's system group). */
const SYSTEM_VARIABLES = [
  { Keyword: 'sys_uuid', Description: 'The end user' },
  { Keyword: 'sys_connector_id', Description: 'The channel (1024 API, 999 chat page and Web SDK)' },
  { Keyword: 'sys_time', Description: 'The time of the call (ISO 8601, UTC)' },
];

const StoredList = z.array(ProjectVariableView);
/** A project's variables as stored; a value that cannot be read is an error naming it, never an empty list. */
export const parseVariables = (text: string): ProjectVariable[] =>
  parseStoredJson(text || '[]', "The project's variables", StoredList);

const meta = (v: ProjectVariable, channel = APP): VariableMeta => ({
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
  const db = () => store.db;
  const spaceOf = async (id: unknown) => (await store.get(String(id ?? ''))).space_id;

  ctx.route({
    ...ListProjectVariables,
    auth: { space: (r: { query: Record<string, unknown> }) => spaceOf(r.query?.ProjectID) },
    handler: async ({ query }) => {
      const p = await store.get(query.ProjectID);
      let variables: ProjectVariable[];
      if (query.version && query.version !== '0') {
        const r = await db()
          .selectFrom('projects_publish')
          .select('variables')
          .where('project_id', '=', p.id)
          .where('version', '=', query.version)
          .executeTakeFirst();
        if (!r) throw badRequest(`The project has no published version ${query.version}.`, { field: 'version' });
        variables = parseVariables(r.variables);
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
    ...UpdateProjectVariables,
    resource: { kind: 'project', id: 'ProjectID', write: true },
    auth: { space: (r: { body: Record<string, unknown> }) => spaceOf(r.body?.ProjectID) },
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
      await db()
        .updateTable('projects_project')
        .set({ variables: JSON.stringify(variables), updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      await store.record(p.id, 'variables', caller!.userId);
      return {};
    },
  });
}
