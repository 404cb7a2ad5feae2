// The calls behind the Extensions settings page (platform administrators): list, preview and set what runs at the
// next start, install a runtime extension, remove one. The host does the work (ExtensionAdminService).
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const BASE = '/api/admin/extensions';
const Changes = z
  .record(z.string().min(1).max(128), z.boolean())
  .refine((c) => Object.keys(c).length > 0, 'Name at least one extension.');
const PerLanguage = z.record(z.string(), z.string());

export const ExtensionView = z.object({
  id: z.string(),
  version: z.string(),
  state: z.enum(['started', 'disabled', 'failed', 'stopped']),
  reason: z.string().optional(),
  source: z.enum(['builtin', 'runtime', 'test']),
  folder: z.string().nullable(),
  name: PerLanguage.optional(),
  description: PerLanguage.optional(),
  requires: z.array(z.string()),
  optional: z.array(z.string()),
  contributions: z.array(z.object({ point: z.string(), keys: z.array(z.string()) })),
  pending: z.enum(['enable', 'disable', 'install', 'remove']).optional(),
});
export type ExtensionView = z.output<typeof ExtensionView>;

export const ChangeView = z.object({ id: z.string(), change: z.enum(['enable', 'disable']), reason: z.string() });
export type ChangeView = z.output<typeof ChangeView>;
const ChangeList = z.object({ changes: z.array(ChangeView) });

export const ListExtensions = defineEndpoint({
  method: 'GET',
  path: `${BASE}/list`,
  summary: 'Every extension found: state, reason, folder, what it contributes, what is pending for the next start',
  response: z.object({ extensions: z.array(ExtensionView) }),
});

export const PreviewChanges = defineEndpoint({
  method: 'POST',
  path: `${BASE}/preview`,
  summary: 'What enabling or disabling these would change at the next start (the cascade)',
  body: z.object({ changes: Changes }),
  response: ChangeList,
});

export const SetEnabled = defineEndpoint({
  method: 'POST',
  path: `${BASE}/set_enabled`,
  summary: 'Enable or disable extensions at the next start (kept in the data folder)',
  body: z.object({ changes: Changes }),
  response: ChangeList,
});

export const InstallExtension = defineEndpoint({
  method: 'POST',
  path: `${BASE}/install`,
  summary: 'Install a runtime extension from an npm pack tarball (base64) into extensionsDir; loaded at the next start',
  body: z.object({
    file_name: z.string().max(300).default('extension.tgz'),
    content_base64: z.string().min(1).max(14_000_000),
  }),
  response: z.object({ id: z.string(), version: z.string(), folder: z.string(), replaced: z.boolean() }),
});

export const RemoveExtension = defineEndpoint({
  method: 'POST',
  path: `${BASE}/remove`,
  summary: 'Remove a runtime extension from extensionsDir (it stops at the next start)',
  body: z.object({ id: z.string().min(1).max(128) }),
  response: z.null(),
});
