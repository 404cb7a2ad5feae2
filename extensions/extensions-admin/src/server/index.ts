import { ExtensionAdminService, defineExtension } from '@tessera/sdk/server';
import { badRequest, conflict } from '@tessera/sdk';
import { InstallExtension, ListExtensions, PreviewChanges, RemoveExtension, SetEnabled } from '../shared/api.ts';

/** The routes behind the Extensions settings page; the host does the work (ExtensionAdminService). */
export default defineExtension({
  id: 'extensions-admin',
  register(ctx) {
    const admin = () => ctx.service(ExtensionAdminService);
    ctx.route({
      ...ListExtensions,
      auth: 'platformAdmin',
      handler: () => ({ extensions: admin().list() }),
    });
    ctx.route({
      ...PreviewChanges,
      auth: 'platformAdmin',
      handler: ({ body }) => ({ changes: admin().preview(body.changes) }),
    });
    ctx.route({
      ...SetEnabled,
      audit: { action: 'extension.set_enabled' },
      auth: 'platformAdmin',
      handler: ({ body }) => {
        const changes = admin().preview(body.changes);
        // This page is the way back: a change that would turn it off (itself, or what it needs) is refused.
        const self = changes.find((c) => c.id === 'extensions-admin' && c.change === 'disable');
        if (self) {
          const cause =
            body.changes['extensions-admin'] === false
              ? 'it is this page'
              : `this page needs what it would turn off (${self.reason})`;
          throw conflict(
            `This change would turn off Extensions (extensions-admin) at the next start, and with it the way to undo it here: ${cause}. To do it anyway, set it in tessera.config.yaml or TESSERA_DISABLE.`,
          );
        }
        admin().setEnabled(body.changes);
        return { changes };
      },
    });
    ctx.route({
      ...InstallExtension,
      audit: { action: 'extension.install' },
      auth: 'platformAdmin',
      handler: ({ body }) => {
        const bytes = Buffer.from(body.content_base64, 'base64');
        if (!bytes.length) throw badRequest('The file is empty.');
        return admin().install(bytes);
      },
    });
    ctx.route({
      ...RemoveExtension,
      audit: { action: 'extension.remove', target: 'id' },
      auth: 'platformAdmin',
      handler: ({ body }) => {
        admin().remove(body.id);
        return null;
      },
    });
  },
});
