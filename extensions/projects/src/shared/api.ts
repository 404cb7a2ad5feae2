// The projects' calls (Coze's /api/intelligence_api/draft_project/..., search/..., publish/... and the project
// variables of /api/memory/project/variable/...): one contract for the routes, the pages and /openapi.json. Times are
// Unix seconds.
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the project a name.').max(100);
const Resource = z.object({ res_type: z.string().min(1).max(32), res_id: Id });
const OneProject = z.object({ project_id: Id });
const Done = z.object({});
const BASE = '/api/intelligence_api';

export const ProjectView = z.object({
  project_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  icon_uri: z.string(),
  creator_id: z.string(),
  archived: z.boolean(),
  /** The last version published ('' before the first). */
  version: z.string(),
  create_time: z.number(),
  update_time: z.number(),
});
export type ProjectView = z.output<typeof ProjectView>;

export const ProjectResourceView = z.object({
  res_type: z.string(),
  res_id: z.string(),
  name: z.string(),
  desc: z.string(),
  edit_time: z.number(),
  published: z.boolean().optional(),
});
export type ProjectResourceView = z.output<typeof ProjectResourceView>;

export const ProjectInfo = z.object({ project: ProjectView, resources: z.array(ProjectResourceView) });
export type ProjectInfo = z.output<typeof ProjectInfo>;

export const CreateProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/create`,
  summary: 'Create a project in a space',
  body: z.object({
    space_id: Id,
    name: Name,
    description: z.string().max(2000).default(''),
    icon_uri: imageRef().default(''),
  }),
  response: z.object({ project_id: z.string() }),
});

export const UpdateProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/update`,
  summary: "Change a project's name, description or icon",
  body: OneProject.extend({
    name: Name.optional(),
    description: z.string().max(2000).optional(),
    icon_uri: imageRef().optional(),
  }),
  response: Done,
});

export const AddProjectResources = defineEndpoint({
  method: 'POST',
  path: `${BASE}/project/resource/add`,
  summary: "Put resources of the project's space in it (any kind but projects)",
  body: OneProject.extend({ resources: z.array(Resource).min(1).max(100) }),
  response: z.object({ added: z.number() }),
});

export const RemoveProjectResources = defineEndpoint({
  method: 'POST',
  path: `${BASE}/project/resource/remove`,
  summary: 'Take resources out of a project (they stay in the space)',
  body: OneProject.extend({ resources: z.array(Resource).min(1).max(100) }),
  response: Done,
});

export const ArchiveProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/archive`,
  summary: 'Archive a project (it leaves the active list; nothing is deleted), or bring it back',
  body: OneProject.extend({ archive: z.boolean().default(true) }),
  response: Done,
});

export const DeleteProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/delete`,
  summary: 'Delete a project into the recycle bin (its resources stay in the space)',
  body: OneProject,
  response: Done,
});

const Copied = z.object({
  project_id: z.string(),
  space_id: z.string(),
  /** Resources of kinds that cannot leave their space, with why. */
  skipped: z.array(z.object({ res_type: z.string(), res_id: z.string(), reason: z.string() })),
});

export const CopyProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/copy`,
  summary:
    'Copy a project with copies of its resources (those of kinds that cannot leave their space are listed as skipped)',
  body: OneProject.extend({ name: Name.optional() }),
  response: Copied,
});

export const CopyProjectToSpace = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/crossspace_copy`,
  summary: 'Copy a project into another space of yours',
  body: OneProject.extend({ to_space_id: Id, name: Name.optional() }),
  response: Copied,
});

export const ProjectVariableView = z.object({
  Keyword: z.string(),
  DefaultValue: z.string(),
  Description: z.string(),
  Enable: z.boolean(),
  IsReadOnly: z.boolean(),
  Schema: z.string(),
});

/** A project as a history entry keeps it. */
export const SnapshotView = z.object({
  name: z.string(),
  description: z.string(),
  icon_uri: z.string(),
  members: z.array(z.object({ kind: z.string(), resource_id: z.string() })),
  /** Absent in entries from before projects had variables. */
  variables: z.array(ProjectVariableView).optional(),
});
export type SnapshotView = z.output<typeof SnapshotView>;

export const ProjectHistory = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/history_list`,
  summary: "A project's changes, newest first (each a point it can be rolled back to)",
  body: OneProject.extend({ limit: z.number().int().min(1).max(200).default(50) }),
  response: z.object({
    history: z.array(
      z.object({
        history_id: z.string(),
        action: z.string(),
        snapshot: SnapshotView,
        creator_id: z.string(),
        create_time: z.number(),
      }),
    ),
  }),
});

export const RollbackProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/draft_project/rollback`,
  summary:
    'Make the project what it was at a history entry: name, description, icon, variables and its resources (resources gone since are listed)',
  body: OneProject.extend({ history_id: Id }),
  response: z.object({ missing: z.array(z.object({ res_type: z.string(), res_id: z.string() })) }),
});

export const ListProjects = defineEndpoint({
  method: 'POST',
  path: `${BASE}/search/get_draft_intelligence_list`,
  summary: 'Projects of a space: name, archived or active, newest first, pages',
  body: z.object({
    space_id: Id,
    name: z.string().max(100).optional(),
    archived: z.boolean().default(false),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({
    intelligences: z.array(ProjectView.extend({ resource_count: z.number() })),
    has_more: z.boolean(),
  }),
});

export const GetProject = defineEndpoint({
  method: 'POST',
  path: `${BASE}/search/get_draft_intelligence_info`,
  summary: 'A project with its resources',
  body: OneProject,
  response: ProjectInfo,
});

// ---- publishing

const PUBLISH = `${BASE}/publish`;

export const CheckVersion = defineEndpoint({
  method: 'POST',
  path: `${PUBLISH}/check_version_number`,
  summary: 'Whether a version number may be published (greater than the last one)',
  body: OneProject.extend({ version_number: z.string().max(32) }),
  response: z.object({ is_valid: z.boolean(), msg: z.string(), last_version: z.string() }),
});

export const ConnectorView = z.object({
  id: z.string(),
  /** By language (en-US, zh-CN) */
  name: z.record(z.string(), z.string()),
  description: z.record(z.string(), z.string()).optional(),
  kinds: z.array(z.string()),
  /** The JSON schema of the settings the connector takes (absent: none). */
  settings_schema: z.record(z.string(), z.unknown()).optional(),
});
export type ConnectorView = z.output<typeof ConnectorView>;

export const ListPublishConnectors = defineEndpoint({
  method: 'POST',
  path: `${PUBLISH}/connector_list`,
  summary: "The connectors the project's resources can be published to",
  body: OneProject,
  response: z.object({ connectors: z.array(ConnectorView) }),
});

export const PublishResult = z.object({
  res_type: z.string(),
  res_id: z.string(),
  name: z.string(),
  status: z.enum(['published', 'failed', 'skipped']),
  version: z.string().optional(),
  reason: z.string().optional(),
});

export const PublishProject = defineEndpoint({
  method: 'POST',
  path: `${PUBLISH}/publish_project`,
  summary:
    'Publish the project as a version: each resource that can publish gets its next version (bots to the chosen connectors)',
  body: OneProject.extend({
    version_number: z.string().trim().max(32),
    description: z.string().max(2000).default(''),
    connectors: z.array(z.string().max(32)).max(20).default([]),
    connector_settings: z.record(z.string(), z.unknown()).default({}),
  }),
  /** status: 1 published, 2 partly, 3 failed */
  response: z.object({ record_id: z.string(), status: z.number(), results: z.array(PublishResult) }),
});

export const PublishRecordView = z.object({
  record_id: z.string(),
  version: z.string(),
  description: z.string(),
  connectors: z.array(z.string()),
  connector_settings: z.record(z.string(), z.unknown()),
  status: z.number(),
  results: z.array(PublishResult),
  creator_id: z.string(),
  create_time: z.number(),
});
export type PublishRecordView = z.output<typeof PublishRecordView>;

export const ListPublishRecords = defineEndpoint({
  method: 'POST',
  path: `${PUBLISH}/publish_record_list`,
  summary: "A project's publications, newest first",
  body: OneProject,
  response: z.object({ records: z.array(PublishRecordView) }),
});

export const GetPublishRecord = defineEndpoint({
  method: 'POST',
  path: `${PUBLISH}/publish_record_detail`,
  summary: 'One publication: what each resource got or why it could not be published',
  body: OneProject.extend({ record_id: Id }),
  response: z.object({ record: PublishRecordView }),
});

// ---- the project's variables (Coze's app variables, channel 5)

/** A variable as Coze's client sends it; the channel is always APP here. */
export const VariableInput = z.object({
  Keyword: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,49}$/, 'A variable name has letters, digits and _ (not first), at most 50.'),
  DefaultValue: z.string().max(2000, 'A default value is at most 2000 characters.').default(''),
  Description: z.string().max(300, 'A description is at most 300 characters.').default(''),
  Enable: z.boolean().default(true),
  IsReadOnly: z.boolean().default(false),
  Schema: z.string().max(4000).default('{"type":"string"}'),
  VariableType: z.number().int().optional(),
  Channel: z.number().int().optional(),
  EffectiveChannelList: z.array(z.string()).optional(),
});
export const MAX_VARIABLES = 50;

export const VariableMeta = z.object({
  Keyword: z.string(),
  DefaultValue: z.string(),
  /** 1: a key and a value */
  VariableType: z.number(),
  /** 5 the project's, 2 the system's */
  Channel: z.number(),
  Description: z.string(),
  Enable: z.boolean(),
  EffectiveChannelList: z.array(z.string()),
  Schema: z.string(),
  IsReadOnly: z.boolean(),
});
export type VariableMeta = z.output<typeof VariableMeta>;

export const ListProjectVariables = defineEndpoint({
  method: 'GET',
  path: '/api/memory/project/variable/meta_list',
  summary: "A project's variables (the draft's, or a published version's with version=) and the system ones, grouped",
  query: z.object({ ProjectID: Id, version: z.string().max(32).optional() }),
  response: z.object({
    VariableList: z.array(VariableMeta),
    CanEdit: z.boolean(),
    GroupConf: z.array(
      z.object({
        GroupName: z.string(),
        GroupDesc: z.string(),
        GroupExtDesc: z.string(),
        VarInfoList: z.array(VariableMeta),
        SubGroupList: z.array(z.unknown()),
        IsReadOnly: z.boolean(),
        DefaultChannel: z.number(),
      }),
    ),
  }),
});

export const UpdateProjectVariables = defineEndpoint({
  method: 'POST',
  path: '/api/memory/project/variable/meta_update',
  summary: "Replace a project's variables (names unique; system names refused)",
  body: z.object({
    ProjectID: Id,
    VariableList: z.array(VariableInput).max(MAX_VARIABLES, `A project has at most ${MAX_VARIABLES} variables.`),
  }),
  response: Done,
});
