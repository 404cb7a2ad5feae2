// The library's calls: every kind's resources in one list (and the recycle bin), folders, delete, restore and purge,
// export, import and copy. One contract for the routes, the pages and /openapi.json. Times are Unix seconds.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Kind = z.string().min(1).max(32);
const InSpace = z.object({ space_id: Id });
const Done = z.object({});

export const ResourceListQuery = InSpace.extend({
  /** Kinds to show (none: all). */
  res_type_filter: z.array(z.string().max(32)).max(50).optional(),
  name: z.string().max(100).optional(),
  /** 'me' (what I created), or a user id; absent: everyone's. */
  creator: z.string().max(32).optional(),
  folder_id: Id.optional(),
  cursor: z.string().max(500).optional(),
  size: z.number().int().min(1).max(100).default(20),
});
export type ResourceListQuery = z.output<typeof ResourceListQuery>;

export const ResourceView = z.object({
  res_type: z.string(),
  res_id: z.string(),
  name: z.string(),
  desc: z.string(),
  icon: z.string(),
  creator_id: z.string(),
  creator_name: z.string(),
  create_time: z.number(),
  edit_time: z.number(),
  /** Whether a published version exists (kinds that publish). */
  published: z.boolean().optional(),
  /** In the recycle bin: when it was deleted. */
  delete_time: z.number().optional(),
  /** '' when in no folder */
  folder_id: z.string(),
});
export type ResourceView = z.output<typeof ResourceView>;

const ResourcePage = z.object({ resource_list: z.array(ResourceView), has_more: z.boolean(), cursor: z.string() });

export const ListResources = defineEndpoint({
  method: 'POST',
  path: '/api/resource/library_resource_list',
  summary:
    "Every kind of resource of the space, newest first: kinds (res_type_filter), name, creator ('me' or a user id), folder, paged by cursor",
  body: ResourceListQuery,
  response: ResourcePage,
});

export const ListRecycled = defineEndpoint({
  method: 'POST',
  path: '/api/resource/library_resource_recycle_info',
  summary: 'The recycle bin: deleted resources of the kinds that can be restored, newest first',
  body: ResourceListQuery,
  response: ResourcePage,
});

export const KindView = z.object({
  kind: z.string(),
  can_delete: z.boolean(),
  recyclable: z.boolean(),
  can_purge: z.boolean(),
  can_export: z.boolean(),
  can_import: z.boolean(),
});
export type KindView = z.output<typeof KindView>;

export const ListKinds = defineEndpoint({
  method: 'POST',
  path: '/api/library/kinds',
  summary: 'The resource kinds of this studio and what the library can do with each',
  response: z.object({ kinds: z.array(KindView) }),
});

const Target = InSpace.extend({ res_type: Kind, res_id: Id });

export const DeleteResource = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/delete',
  summary: 'Delete a resource: into the recycle bin when its kind can restore it, else for good',
  body: Target,
  response: z.object({ recycled: z.boolean() }),
});

export const RestoreResource = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/restore',
  summary: 'Take a resource out of the recycle bin (back into its folder)',
  body: Target,
  response: Done,
});

export const PurgeResource = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/purge',
  summary: 'Delete a resource in the recycle bin for good (space admins)',
  body: Target,
  response: Done,
});

// ---- folders

const FolderName = z.string().trim().min(1, 'Give the folder a name.').max(100);
export const FolderView = z.object({
  id: z.string(),
  /** '' at the top */
  parent_id: z.string(),
  name: z.string(),
  resource_count: z.number(),
  update_time: z.number(),
});
export type FolderView = z.output<typeof FolderView>;

export const FolderTree = defineEndpoint({
  method: 'POST',
  path: '/api/library/folder/tree',
  summary: "The space's folders with how many resources each holds",
  body: InSpace,
  response: z.object({ folders: z.array(FolderView) }),
});

export const CreateFolder = defineEndpoint({
  method: 'POST',
  path: '/api/library/folder/create',
  summary: 'Create a folder (in another one, or at the top)',
  body: InSpace.extend({ name: FolderName, parent_id: Id.optional() }),
  response: z.object({ folder_id: z.string() }),
});

export const UpdateFolder = defineEndpoint({
  method: 'POST',
  path: '/api/library/folder/update',
  summary: 'Rename a folder, or move it into another one (or to the top with parent_id "")',
  body: InSpace.extend({ folder_id: Id, name: FolderName.optional(), parent_id: z.string().max(32).optional() }),
  response: Done,
});

export const DeleteFolder = defineEndpoint({
  method: 'POST',
  path: '/api/library/folder/delete',
  summary: 'Delete a folder; what it holds (resources and folders) moves up to its parent',
  body: InSpace.extend({ folder_id: Id }),
  response: Done,
});

export const MoveResources = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/move',
  summary: 'Put resources into a folder, or out of every folder (folder_id "")',
  body: InSpace.extend({
    resources: z
      .array(z.object({ res_type: Kind, res_id: Id }))
      .min(1)
      .max(100),
    folder_id: z.string().max(32).default(''),
  }),
  response: Done,
});

// ---- export, import, copy

/** A resource file as it is read on import. */
export const BundleInput = z.object({
  format: z.literal('tessera.resources', { message: 'This is not a resource file exported by a Tessera studio.' }),
  version: z.literal(1),
  exported_at: z.string().default(''),
  extensions: z.array(z.object({ id: z.string(), version: z.string() })).default([]),
  resources: z
    .array(
      z.object({
        kind: z.string().min(1).max(32),
        id: z.string().min(1).max(64),
        name: z.string().max(200),
        description: z.string().max(5000).default(''),
        icon_uri: z.string().max(5000).optional(),
        data: z.unknown(),
        requires: z.record(z.string(), z.array(z.string().max(200)).max(500)).optional(),
      }),
    )
    .min(1)
    .max(200),
});

export const ExportResource = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/export',
  summary: 'A resource with what it brings along (a workflow and its sub-workflows) as a file to import elsewhere',
  body: Target,
  response: z.object({
    file_name: z.string(),
    bundle: z.object({
      format: z.literal('tessera.resources'),
      version: z.literal(1),
      exported_at: z.string(),
      extensions: z.array(z.object({ id: z.string(), version: z.string() })),
      resources: z.array(
        z.object({
          kind: z.string(),
          id: z.string(),
          name: z.string(),
          description: z.string(),
          icon_uri: z.string().optional(),
          data: z.unknown(),
          requires: z.record(z.string(), z.array(z.string())).optional(),
        }),
      ),
    }),
  }),
});

export const ImportResource = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/import',
  summary:
    'Create resources from an exported file (refused, with the list, when this studio lacks a kind, node type or skill it needs)',
  body: InSpace.extend({ bundle: z.unknown(), name: z.string().trim().min(1).max(100).optional() }),
  response: z.object({ res_type: z.string(), res_id: z.string() }),
});

export const CopyResource = defineEndpoint({
  method: 'POST',
  path: '/api/library/resource/copy',
  summary: 'Copy a resource (with what it brings along) into this space or another space of yours',
  body: Target.extend({ to_space_id: Id.optional(), name: z.string().trim().min(1).max(100).optional() }),
  response: z.object({ res_type: z.string(), res_id: z.string(), space_id: z.string() }),
});
