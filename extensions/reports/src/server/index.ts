// Content reports (server half): people report, platform administrators answer.
import { defineExtension } from '@tessera/sdk/server';
import {
  HandleReport,
  OBJECT_TYPES,
  QueryReports,
  REASONS,
  ReportMeta,
  ReportTimes,
  SubmitReport,
} from '../shared/api.ts';
import { migrations } from './migrations.ts';
import { texts } from './texts.ts';
import { ReportService } from './service.ts';

export default defineExtension({
  id: 'reports',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const reports = ctx.resolve(ReportService);
    ctx.route({
      ...ReportMeta,
      auth: 'user',
      handler: () => ({ object_types: [...OBJECT_TYPES], reasons: [...REASONS] }),
    });
    ctx.route({
      ...SubmitReport,
      auth: 'user',
      rateLimit: { max: 20, key: 'caller' },
      audit: { action: 'report.submit', target: 'object_id' },
      handler: async ({ body, caller }) => ({ report: await reports.submit(caller!.userId, body) }),
    });
    ctx.route({
      ...ReportTimes,
      auth: 'user',
      handler: ({ query, caller }) => reports.times(query.object_type, query.object_id, caller!.userId),
    });
    ctx.route({
      ...QueryReports,
      auth: 'platformAdmin',
      handler: ({ body }) => reports.query(body.status, body.object_type, body.page, body.size),
    });
    ctx.route({
      ...HandleReport,
      auth: 'platformAdmin',
      audit: { action: 'report.handle', target: 'report_id' },
      handler: async ({ body, caller }) => ({
        handled: await reports.handle(body.report_id, caller!.userId, body.action, body.note, body.all),
      }),
    });
  },
});
