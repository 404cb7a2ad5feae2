// Resources as bundles: export (a file), import (from a file), copy (to this space or another of yours).
// A bundle names the extensions of its kinds; an import lacking a kind, a node type or a skill is refused
// with the whole list, and nothing is created.
import { badRequest, forbidden } from '@tessera/sdk';
import { ExtensionAdminService, ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { BundleInput, CopyResource, ExportResource, ImportResource } from '../shared/api.ts';
import { LibraryService, type Library } from '../shared/index.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

export function registerTransfer(ctx: ServerContext<unknown>) {
  const kindOf = (name: string) => ctx.registry(ResourceKinds).get(name);

  const library: Library = {
    async exportBundle(kind, id, spaceId) {
      const k = kindOf(kind);
      if (!k?.exportOf) throw badRequest(`Resources of kind '${kind}' cannot leave their space.`);
      const resources = await k.exportOf(id, spaceId);
      const owners = [
        ...new Set(resources.map((r) => ctx.registry(ResourceKinds).ownerOf(r.kind)).filter(Boolean)),
      ] as string[];
      const versions = new Map(
        ctx
          .service(ExtensionAdminService)
          .list()
          .map((e) => [e.id, e.version]),
      );
      return {
        format: 'tessera.resources',
        version: 1,
        exported_at: new Date().toISOString(),
        extensions: owners.map((o) => ({ id: o, version: versions.get(o) ?? '' })),
        resources,
      };
    },
    async importBundle(raw, opts) {
      const parsed = BundleInput.safeParse(raw);
      if (!parsed.success)
        throw badRequest(
          `The resource file cannot be read: ${parsed.error.issues[0]?.path.join('.') || ''} ${parsed.error.issues[0]?.message ?? ''}`.trim(),
        );
      const bundle = parsed.data;
      // Everything missing, named, before anything is created.
      const missing: string[] = [];
      for (const pkg of bundle.resources) {
        const k = kindOf(pkg.kind);
        if (!k?.importInto)
          missing.push(
            `resources of kind ${pkg.kind}${bundle.extensions.length ? ` (from ${bundle.extensions.map((e) => `${e.id} ${e.version}`).join(', ')})` : ''}`,
          );
        else missing.push(...(k.missing?.(pkg) ?? []).map((m) => `${m} (in "${pkg.name}")`));
      }
      if (missing.length)
        throw badRequest(
          `This studio lacks what the file needs: ${[...new Set(missing)].join('; ')}. Enable the extensions that provide them, then import again.`,
          { missing: [...new Set(missing)] },
        );
      // What a resource brings along is imported before it: the packages in reverse order.
      const ids = new Map<string, string>();
      const order = [...bundle.resources].reverse();
      for (const pkg of order) {
        const isRoot = pkg === bundle.resources[0];
        const newId = await kindOf(pkg.kind)!.importInto!(pkg, {
          spaceId: opts.spaceId,
          userId: opts.userId,
          ids,
          ...(isRoot && opts.name ? { name: opts.name } : {}),
        });
        ids.set(pkg.id, newId);
      }
      return { kind: bundle.resources[0].kind, id: ids.get(bundle.resources[0].id)! };
    },
  };
  ctx.provide(LibraryService, library);

  ctx.route({
    ...ExportResource,
    audit: { action: 'export.library', target: 'space_id' },
    auth: inSpace,
    handler: async ({ body }) => {
      const bundle = await library.exportBundle(body.res_type, body.res_id, body.space_id);
      const name = bundle.resources[0].name.replace(/[^\p{L}\p{N} _.-]/gu, '_').slice(0, 80) || body.res_type;
      return { file_name: `${name}.${body.res_type}.json`, bundle };
    },
  });

  ctx.route({
    ...ImportResource,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const r = await library.importBundle(body.bundle, {
        spaceId: body.space_id,
        userId: caller!.userId,
        name: body.name,
      });
      return { res_type: r.kind, res_id: r.id };
    },
  });

  ctx.route({
    ...CopyResource,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const to = body.to_space_id ?? body.space_id;
      if (to !== body.space_id && !(await ctx.service(SpacesService).roleOf(to, caller!.userId)))
        throw forbidden('You are not a member of the space to copy into.');
      const bundle = await library.exportBundle(body.res_type, body.res_id, body.space_id);
      const r = await library.importBundle(bundle, { spaceId: to, userId: caller!.userId, name: body.name });
      return { res_type: r.kind, res_id: r.id, space_id: to };
    },
  });
}
