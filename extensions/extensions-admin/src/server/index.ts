import { ExtensionAdminService, defineExtension } from '@tessera/sdk/server';
import { badRequest, conflict } from '@tessera/sdk';
import { z } from 'zod';

const base = '/api/admin/extensions';
const Changes = z
  .record(z.string().min(1).max(128), z.boolean())
  .refine((c) => Object.keys(c).length > 0, 'Name at least one extension.');

/** The routes behind the Extensions settings page; the host does the work (ExtensionAdminService). */
export default defineExtension({
  id: 'extensions-admin',
  register(ctx) {
    const admin = () => ctx.service(ExtensionAdminService);
    ctx.route({
      method: 'GET',
      path: `${base}/list`,
      auth: 'platformAdmin',
      summary: 'Every extension found: state, reason, folder, what it contributes, what is pending for the next start',
      handler: () => ({ extensions: admin().list() }),
    });
    ctx.route({
      method: 'POST',
      path: `${base}/preview`,
      auth: 'platformAdmin',
      summary: 'What enabling or disabling these would change at the next start (the cascade)',
      body: z.object({ changes: Changes }),
      handler: ({ body }) => ({ changes: admin().preview(body.changes) }),
    });
    ctx.route({
      method: 'POST',
      path: `${base}/set_enabled`,
      audit: { action: 'extension.set_enabled' },
      auth: 'platformAdmin',
      summary: 'Enable or disable extensions at the next start (kept in the data folder)',
      body: z.object({ changes: Changes }),
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
      method: 'POST',
      path: `${base}/install`,
      audit: { action: 'extension.install' },
      auth: 'platformAdmin',
      summary:
        'Install a runtime extension from an npm pack tarball (base64) into extensionsDir; loaded at the next start',
      body: z.object({
        file_name: z.string().max(300).default('extension.tgz'),
        content_base64: z.string().min(1).max(14_000_000),
      }),
      handler: ({ body }) => {
        const bytes = Buffer.from(body.content_base64, 'base64');
        if (!bytes.length) throw badRequest('The file is empty.');
        return admin().install(bytes);
      },
    });
    ctx.route({
      method: 'POST',
      path: `${base}/remove`,
      audit: { action: 'extension.remove', target: 'id' },
      auth: 'platformAdmin',
      summary: 'Remove a runtime extension from extensionsDir (it stops at the next start)',
      body: z.object({ id: z.string().min(1).max(128) }),
      handler: ({ body }) => {
        admin().remove(body.id);
        return null;
      },
    });
  },
});
