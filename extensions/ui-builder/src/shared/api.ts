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
  body: z.object({ ui_id: Id }),
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
const PropKindSchema = z.enum(['text', 'longtext', 'number', 'boolean', 'url', 'variable', 'choice']);
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
