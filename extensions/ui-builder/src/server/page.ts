// The published app's page (/apps/<id>): HTML with the app's data inline (its published DSL, or why this viewer may
// not open it) and the files of its light bundle (the webEntry "app"); no studio shell. A policy of its own: scripts
// from the studio only, frames from the studio only (custom components), nothing may frame it.
import type { ServerContext } from '@tessera/sdk/server';
import { WebEntriesService } from '@tessera/sdk/server';
import { languageOf } from '@tessera/sdk';
import { CSRF_COOKIE, CSRF_HEADER } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { Dsl } from '../shared/dsl.ts';
import { accessProblem, type UiStore } from './store.ts';
import { texts } from './texts.ts';

const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script> element: no "</script>" or "<!--" can close or open anything. */
const inlineJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function registerPage(ctx: ServerContext, store: UiStore): void {
  ctx.route({
    method: 'GET',
    path: '/apps/:ui_id',
    produces: 'text/html',
    auth: 'anonymous',
    rawResponse: true,
    rateLimit: { max: 240, key: 'ip' },
    summary: 'A published app (its page, for whoever its access lets in)',
    params: z.object({ ui_id: z.string().min(1).max(32) }),
    handler: async ({ params, caller, headers }, reply) => {
      const lang = languageOf(headers['accept-language']);
      const assets = ctx.service(WebEntriesService).assets('ui-builder', 'app');
      const a = await store.db.selectFrom('ui_app').selectAll().where('id', '=', params.ui_id).executeTakeFirst();
      let data: Record<string, unknown>;
      let title = a?.name ?? '';
      if (!a?.published_dsl) {
        reply.status(404);
        data = { ui_id: params.ui_id, ui_name: '', refused: texts.text('notPublished', { id: params.ui_id }, lang) };
        title = '';
      } else {
        const problem = await accessProblem(ctx, a, caller);
        if (problem) reply.status(problem === 'signIn' ? 401 : 403);
        data = problem
          ? { ui_id: a.id, ui_name: a.name, refused: texts.text(problem, {}, lang), sign_in: problem === 'signIn' }
          : {
              ui_id: a.id,
              ui_name: a.name,
              dsl: Dsl.parse(JSON.parse(a.published_dsl)),
              published_version: Number(a.published_version),
            };
      }
      reply.header('content-security-policy', PAGE_CSP);
      reply.header('cache-control', 'no-store');
      if (!assets) {
        reply.status(503);
        return reply.send(
          `<!doctype html><meta charset="utf-8"><p style="font:14px sans-serif;padding:24px">${escapeHtml(texts.text('noBuild', {}, lang))}</p>`,
          'text/html; charset=utf-8',
        );
      }
      const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title || 'App')}</title>${assets.css.map((c) => `<link rel="stylesheet" href="${escapeHtml(c)}">`).join('')}${assets.js.map((j) => `<script defer src="${escapeHtml(j)}"></script>`).join('')}</head><body><div id="root"></div><script type="application/json" id="ui-app-data">${inlineJson({ ...data, lang, csrf: { cookie: CSRF_COOKIE, header: CSRF_HEADER } })}</script></body></html>`;
      reply.send(html, 'text/html; charset=utf-8');
    },
  });
}
