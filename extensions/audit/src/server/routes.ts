// The audit log's routes: a space's events (its administrators), the whole studio's (platform administrators), each
// as CSV too, and the basic configuration.
import type { ApiReply, ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { AuditConf, AuditFilter, ListAllAuditEvents, ListSpaceAuditEvents } from '../shared/api.ts';
import type { AuditStore } from './store.ts';

const sendCsv = (reply: ApiReply, csv: string, name: string) => {
  reply.header('content-disposition', `attachment; filename="${name}"`);
  reply.send(csv, 'text/csv; charset=utf-8');
};
const stamp = () => new Date().toISOString().slice(0, 10);

export function registerRoutes(ctx: ServerContext, store: AuditStore, retentionDays: number): void {
  ctx.route({
    ...ListSpaceAuditEvents,
    auth: { space: { from: 'body', field: 'space_id' }, role: 'admin' },
    handler: ({ body }) => store.list(body),
  });
  ctx.route({ ...ListAllAuditEvents, auth: 'platformAdmin', handler: ({ body }) => store.list(body) });
  ctx.route({
    method: 'GET',
    path: '/api/audit/events/export',
    produces: 'text/csv',
    auth: { space: { from: 'query', field: 'space_id' }, role: 'admin' },
    summary: "A space's audit log as CSV (the filters of the list)",
    query: AuditFilter.extend({ space_id: z.string().min(1).max(32) }),
    audit: { action: 'audit.export', target: 'space_id' },
    handler: async ({ query }, reply) =>
      sendCsv(reply, await store.csv(query), `audit-${query.space_id}-${stamp()}.csv`),
  });
  ctx.route({
    method: 'GET',
    path: '/api/audit/events/export_all',
    produces: 'text/csv',
    auth: 'platformAdmin',
    summary: "The whole studio's audit log as CSV",
    query: AuditFilter.extend({ space_id: z.string().max(32).default('') }),
    audit: { action: 'audit.export' },
    handler: async ({ query }, reply) => sendCsv(reply, await store.csv(query), `audit-${stamp()}.csv`),
  });
  ctx.route({
    ...AuditConf,
    auth: 'user',
    handler: () => ({ retention_days: retentionDays, actions: [...store.actions].sort() }),
  });
}
