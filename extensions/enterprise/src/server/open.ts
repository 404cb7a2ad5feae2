// The enterprise on the open API: its people, for a token given `enterprise.member.read` for that enterprise (a
// directory sync, an HR integration), or a session of one of its people.
import type { ServerContext } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { SearchPeople } from '../shared/api.ts';
import { assertCan } from './policy.ts';
import { texts } from './texts.ts';
import type { EnterpriseService } from './service.ts';

const READ = 'enterprise.member.read';

export function registerOpenRoutes(ctx: ServerContext, e: EnterpriseService): void {
  ctx.register(TokenPermissions, {
    key: READ,
    label: { 'en-US': "Read an enterprise's people", 'zh-CN': '读取企业成员' },
    group: 'enterprise',
    scope: 'enterprise',
  });
  ctx.route({
    method: 'GET',
    path: '/v1/enterprises/:enterprise_id/members',
    response: z.object({ items: SearchPeople.response.shape.people, total_count: z.number() }),
    auth: 'user',
    permission: READ,
    summary: "An enterprise's people (a token needs enterprise.member.read for this enterprise)",
    params: z.object({ enterprise_id: z.string().min(1).max(32) }),
    query: z.object({
      keyword: z.string().max(100).default(''),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(50),
    }),
    handler: async ({ params, query, caller }) => {
      // The host checked that the token holds the permission for some enterprise; this one must be it.
      if (
        caller!.kind === 'token' &&
        caller!.tokenAllows &&
        !caller!.tokenAllows(READ, undefined, params.enterprise_id)
      )
        throw texts.error(403, 'tokenEnterprise', { permission: READ, enterprise: params.enterprise_id });
      assertCan(await e.roleOf(params.enterprise_id, caller!.userId), 'view');
      const r = await e.people(params.enterprise_id, query.keyword, query.page_num, query.page_size);
      return { items: r.people, total_count: r.total };
    },
  });
}
