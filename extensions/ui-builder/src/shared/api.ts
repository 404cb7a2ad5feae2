// The UI builder's calls (spec 001 "UI builder", /api/ui_builder/v1/...; the published app's own calls under
// /api/ui_builder/v1/app/...). One contract for the server and the pages.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { Dsl } from './dsl.ts';

const Id = z.string().min(1).max(32);
const ok = z.object({});
export const Access = z.enum(['public', 'signed_in', 'members']);

export const UiView = z.object({
  ui_id: z.string(),
  space_id: z.string(),
  ui_name: z.string(),
  /** The draft. */
  dsl: Dsl,
  /** Who may open the published app: anyone, people signed in to the studio, or the space's members. */
  access: Access,
  /** The draft's save count (a save names the one it changes: a stale one is refused). */
  version_code: z.number(),
  published_version: z.number(),
  published_at: z.number(),
  updated_at: z.number(),
  description: z.string(),
  /** 'ui': an app of pages; 'agent': an app around a bot (agent app builder). */
  app_kind: z.enum(['ui', 'agent']),
  /** An agent app's bot. */
  bot_id: z.string(),
});
export type UiView = z.output<typeof UiView>;

export const CreateUi = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/create',
  summary: 'Make an app (one empty page) in a space',
  body: z.object({ space_id: Id, ui_name: z.string().trim().min(1, 'Name the app.').max(60) }),
  response: z.object({ ui: UiView }),
});
export const GetUi = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/get',
  summary: 'An app with its draft',
  body: z.object({ ui_id: Id }),
  response: z.object({ ui: UiView }),
});
export const ListUi = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/list',
  summary: "A space's apps, newest first",
  body: z.object({ space_id: Id }),
  response: z.object({ uis: z.array(UiView) }),
});
export const UpdateUi = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/update',
  summary: "Save an app's draft (checked: components, bounds, addresses, events), its name or access",
  body: z.object({
    ui_id: Id,
    /** The version_code the change was made on: a save over someone else's newer one is refused (409). */
    base_version: z.number().int().min(0),
    dsl: z.unknown().optional(),
    ui_name: z.string().trim().min(1).max(60).optional(),
    description: z.string().max(400).optional(),
    access: Access.optional(),
  }),
  response: z.object({ ui: UiView }),
});
export const DeleteUi = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/delete',
  summary: 'Delete an app with its snapshots (its published page stops)',
  body: z.object({ ui_id: Id }),
  response: ok,
});

export const SnapshotView = z.object({
  snapshot_id: z.string(),
  version_code: z.number(),
  note: z.string(),
  created_by: z.string(),
  created_at: z.number(),
});
export const SaveSnapshot = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/snapshot',
  summary: 'Keep the draft as it is now as a snapshot (with a note)',
  body: z.object({ ui_id: Id, note: z.string().max(200).default('') }),
  response: z.object({ snapshot: SnapshotView }),
});
export const GetSnapshots = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/snapshot/get',
  summary: "An app's snapshots, newest first; with snapshot_id, that one's DSL too",
  body: z.object({ ui_id: Id, snapshot_id: z.string().max(32).optional() }),
  response: z.object({ snapshots: z.array(SnapshotView), dsl: Dsl.optional() }),
});
export const RestoreSnapshot = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/snapshot/restore',
  summary: 'Make a snapshot the draft again (the draft before it is kept as a snapshot first)',
  body: z.object({ ui_id: Id, snapshot_id: Id }),
  response: z.object({ ui: UiView }),
});
export const PublishUi = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/publish/snapshot',
  summary: 'Publish the draft: the web app at /apps/<ui_id> shows it from now on (its workflows must be published)',
  body: z.object({ ui_id: Id, description: z.string().max(2000).default('') }),
  response: z.object({ ui: UiView, path: z.string() }),
});
export const PublishedDsl = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/publish/dsl/get',
  summary: "The published app's DSL",
  body: z.object({ ui_id: Id }),
  response: z.object({ dsl: Dsl, published_version: z.number() }),
});

/** The published app as the viewer's browser receives it. */
export const AppView = z.object({ ui_id: z.string(), ui_name: z.string(), dsl: Dsl, published_version: z.number() });
export const GetApp = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/app/get',
  summary: 'A published app (as its access allows the caller: anyone, signed in, or members of its space)',
  body: z.object({ ui_id: Id }),
  response: z.object({ app: AppView }),
});
export const RunAppEvent = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/app/run',
  summary:
    "Run a published app's event: its workflow (only those its events name) with inputs from the components' values and the variables; answers the variables it sets",
  body: z.object({
    ui_id: Id,
    event_id: z.string().min(1).max(40),
    /** What the viewer entered, by component id. */
    values: z.record(z.string().max(40), z.unknown()).default({}),
    variables: z.record(z.string().max(64), z.unknown()).default({}),
  }),
  response: z.object({ variables: z.record(z.string(), z.unknown()) }),
});
export const PreviewEvent = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/preview/run',
  summary: "Run an event of the draft in the builder's preview (a member of the app's space, as themselves)",
  body: RunAppEvent.body,
  response: RunAppEvent.response,
});

// ---------------------------------------------------------------------------------------- custom components
const PropKindSchema = z.enum(['text', 'longtext', 'number', 'boolean', 'url', 'variable', 'choice', 'bot']);
/** A custom component the palette offers: an extension's (built code it ships) or one imported into the space. */
export const ComponentView = z.object({
  type: z.string(),
  label: z.string(),
  source: z.enum(['extension', 'imported']),
  props: z.record(z.string(), PropKindSchema),
  /** Imported: its latest version (1, 2, ...); an extension's: 0. */
  version: z.number(),
  note: z.string(),
  created_by: z.string(),
  created_at: z.number(),
});
export type ComponentView = z.output<typeof ComponentView>;
/** The most an imported component's page may weigh. */
export const COMPONENT_HTML_MAX = 200 * 1024;
export const ImportComponent = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/component/import',
  summary:
    'Import a custom component into a space (its page: HTML with its script inline, drawn in a sandboxed frame); the same name again is its next version',
  body: z.object({
    space_id: Id,
    /** Its name: lower-case letters, digits and -; its type in a DSL is `x-<name>`. */
    name: z
      .string()
      .regex(
        /^[a-z][a-z0-9-]{1,38}$/,
        'A component name is lower-case letters, digits and - (2 to 39), a letter first.',
      ),
    label: z.string().trim().min(1).max(60),
    props: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), PropKindSchema).default({}),
    html: z
      .string()
      .min(1)
      .max(COMPONENT_HTML_MAX, `A component's page is at most ${COMPONENT_HTML_MAX / 1024} KB.`),
    note: z.string().max(200).default(''),
  }),
  response: z.object({ component: ComponentView }),
});
export const ListComponents = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/component/list',
  summary:
    "The custom components a space's apps may use: the extensions' and the space's imported ones (latest versions)",
  body: z.object({ space_id: Id }),
  response: z.object({ components: z.array(ComponentView) }),
});
export const ListImported = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/component/imported/list',
  summary: "A space's imported components, every version (one component's with type)",
  body: z.object({ space_id: Id, type: z.string().max(64).optional() }),
  response: z.object({ components: z.array(ComponentView) }),
});
export const CompareComponent = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/component/compare',
  summary: 'What changed between two versions of an imported component: its props and its page, line by line',
  body: z.object({
    space_id: Id,
    type: z.string().max(64),
    from_version: z.number().int().min(1),
    to_version: z.number().int().min(1),
  }),
  response: z.object({
    props_added: z.array(z.string()),
    props_removed: z.array(z.string()),
    props_changed: z.array(z.string()),
    /** The page's lines: ' ' kept, '-' removed, '+' added (unchanged runs shortened). */
    lines: z.array(z.object({ op: z.enum([' ', '-', '+']), text: z.string() })),
  }),
});
export const DeleteComponent = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/component/delete',
  summary: 'Remove an imported component (every version, or one): refused while an app of the space uses it',
  body: z.object({ space_id: Id, type: z.string().max(64), version: z.number().int().min(1).optional() }),
  response: ok,
});

/** A turn of a chat component (answered as a stream of Coze's chat events). */
export const ChatBody = z.object({
  ui_id: Id,
  component_id: z.string().min(1).max(40),
  query: z.string().trim().min(1, 'Write a message first.').max(4000),
  conversation_id: z.string().max(32).optional(),
  /** The id the page keeps for this visitor (one conversation history per visitor). */
  visitor_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'visitor_id is the id the page keeps for this visitor.'),
});

// ---------------------------------------------------------------------------------------- the builder's pickers
export const ListWorkflows = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/workflows',
  summary: "The space's workflows an event may run (published ones run in the published app)",
  body: z.object({ space_id: Id }),
  response: z.object({
    workflows: z.array(
      z.object({ workflow_id: z.string(), name: z.string(), published: z.boolean(), outputs: z.array(z.string()) }),
    ),
  }),
});
export const ListBots = defineEndpoint({
  method: 'POST',
  path: '/api/ui_builder/v1/bots',
  summary: "The space's bots a chat may talk to (web_app: published to the Web app channel)",
  body: z.object({ space_id: Id }),
  response: z.object({ bots: z.array(z.object({ bot_id: z.string(), name: z.string(), web_app: z.boolean() })) }),
});

// ---------------------------------------------------------------------------------------- agent apps (/api/agent_app_builder/v1/...)
const AB = '/api/agent_app_builder/v1';
export const AgentAppCreate = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/create`,
  summary:
    "Make an agent app around a bot (a landing page, the chat, and a form that starts a workflow when one is given), or install a package's version",
  body: z.object({
    space_id: Id,
    name: z.string().trim().min(1, 'Name the app.').max(60),
    description: z.string().max(400).default(''),
    bot_id: z.string().max(32).default(''),
    workflow_id: z.string().max(32).optional(),
    package_id: z.string().max(32).optional(),
    package_version: z.number().int().min(1).optional(),
  }),
  response: z.object({ app: UiView }),
});
export const GenAgentApp = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/gen_agent_app`,
  summary: "Generate an agent app from a description with a chat model (the space's default when none is named)",
  body: z.object({
    space_id: Id,
    description: z.string().trim().min(4, 'Say what the app is for.').max(2000),
    bot_id: Id,
    workflow_id: z.string().max(32).optional(),
    model_id: z.string().max(32).optional(),
  }),
  response: z.object({ app: UiView }),
});
export const AiGenerateContent = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/ai_generate_content`,
  summary: "Write a text of an app's component with a chat model (a title, a paragraph, Markdown)",
  body: z.object({
    app_id: Id,
    instruction: z.string().trim().min(2, 'Say what to write.').max(2000),
    format: z.enum(['title', 'text', 'markdown']).default('text'),
    model_id: z.string().max(32).optional(),
  }),
  response: z.object({ content: z.string() }),
});
export const AgentAppGet = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/get`,
  summary: 'An app (agent or not) with its draft',
  body: z.object({ app_id: Id }),
  response: z.object({ app: UiView }),
});
export const AgentAppUpdate = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/update`,
  summary: "Change an app's name or description",
  body: z.object({
    app_id: Id,
    name: z.string().trim().min(1).max(60).optional(),
    description: z.string().max(400).optional(),
  }),
  response: z.object({ app: UiView }),
});
export const UpdateAgentBot = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/update_agent_bot`,
  summary: "Change an agent app's bot (its chats talk to the new one)",
  body: z.object({ app_id: Id, bot_id: Id }),
  response: z.object({ app: UiView }),
});
export const AgentAppPreview = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/preview`,
  summary: "An app's draft as its preview draws it, and where the builder opens it",
  body: z.object({ app_id: Id }),
  response: z.object({ dsl: Dsl, builder_path: z.string() }),
});
export const PublishRecord = z.object({
  version: z.number(),
  access: z.string(),
  description: z.string(),
  created_by: z.string(),
  created_at: z.number(),
});
export const AgentPublishCreate = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/publish/create`,
  summary: 'Publish an app (its draft becomes the next version at /apps/<id>), with an access if given',
  body: z.object({ app_id: Id, description: z.string().max(2000).default(''), access: Access.optional() }),
  response: z.object({ app: UiView, path: z.string(), version: z.number() }),
});
export const AgentPublishList = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/publish/list`,
  summary: "An app's publications, newest first",
  body: z.object({ app_id: Id }),
  response: z.object({ publications: z.array(PublishRecord) }),
});
export const AgentPublishGet = defineEndpoint({
  method: 'POST',
  path: `${AB}/app/publish/get`,
  summary: 'One publication of an app with its DSL',
  body: z.object({ app_id: Id, version: z.number().int().min(1) }),
  response: z.object({ publication: PublishRecord, dsl: Dsl }),
});

export const PackageView = z.object({
  package_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  source_app_id: z.string(),
  latest_version: z.number(),
  creator_id: z.string(),
  updated_at: z.number(),
});
export type PackageView = z.output<typeof PackageView>;
export const PackageVersion = z.object({
  version: z.number(),
  note: z.string(),
  bot_id: z.string(),
  created_by: z.string(),
  created_at: z.number(),
});
export const PackageCreate = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/create`,
  summary: "Keep an app's draft as a package (version 1), to install as new apps",
  body: z.object({
    app_id: Id,
    name: z.string().trim().min(1).max(60),
    description: z.string().max(400).default(''),
    note: z.string().max(200).default(''),
  }),
  response: z.object({ package: PackageView }),
});
export const PackageUpdate = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/update`,
  summary: "Rename a package, or add its next version from its app's draft now (new_version)",
  body: z.object({
    package_id: Id,
    name: z.string().trim().min(1).max(60).optional(),
    description: z.string().max(400).optional(),
    new_version: z.boolean().default(false),
    note: z.string().max(200).default(''),
  }),
  response: z.object({ package: PackageView }),
});
export const PackageGet = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/get`,
  summary: 'A package with the DSL of a version (the latest by default)',
  body: z.object({ package_id: Id, version: z.number().int().min(1).optional() }),
  response: z.object({ package: PackageView, dsl: Dsl, version: z.number() }),
});
export const PackageList = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/list`,
  summary: "A space's packages, newest first",
  body: z.object({ space_id: Id }),
  response: z.object({ packages: z.array(PackageView) }),
});
export const PackageBatchGet = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/batch_get`,
  summary: 'Packages by id (those of spaces the caller is a member of)',
  body: z.object({ package_ids: z.array(Id).min(1).max(50) }),
  response: z.object({ packages: z.array(PackageView) }),
});
export const PackageDelete = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/delete`,
  summary: 'Delete a package with its versions (apps installed from it stay)',
  body: z.object({ package_id: Id }),
  response: ok,
});
export const PackageVersions = defineEndpoint({
  method: 'POST',
  path: `${AB}/package/version/list`,
  summary: "A package's versions, newest first",
  body: z.object({ package_id: Id }),
  response: z.object({ versions: z.array(PackageVersion) }),
});
