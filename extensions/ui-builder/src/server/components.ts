// Custom components: imported into a space (versions of a page of HTML with its script inline; list, compare,
// remove), or added by extensions on the UiComponents point. Either is drawn in a frame the studio serves with a
// policy of its own: a sandbox (another origin: no cookies, no studio pages, no storage of the studio), no network,
// framed by the studio only. A published app's frames open by the app's access and only for types its DSL uses.
import { languageOf } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import {
  CompareComponent,
  DeleteComponent,
  ImportComponent,
  ListComponents,
  ListImported,
  type ComponentView,
} from '../shared/api.ts';
import { Dsl, IMPORTED_PREFIX, UiComponents, type PropKind, type UiNode } from '../shared/dsl.ts';
import { accessProblem, iso, secs, type ComponentRow, type UiStore } from './store.ts';
import { texts } from './texts.ts';

/** The frame's policy: scripts of its own page only, no network, images over https, framed by the studio. */
const FRAME_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src https: data:',
  'font-src data:',
  "frame-ancestors 'self'",
].join('; ');

/** What the frame's page gets before the component's own: `window.tessera` (state in; value, events, height out). */
const RUNTIME = `(function(){var fs=[],st=null,post=function(m){m.tessera='ui';parent.postMessage(m,'*')};
window.tessera={onState:function(f){fs.push(f);if(st)f(st)},setValue:function(v){post({kind:'value',value:v})},
fire:function(on){post({kind:'fire',on:on==='submit'?'submit':'click'})},setHeight:function(h){post({kind:'height',height:h})}};
addEventListener('message',function(e){var m=e.data;if(e.source!==parent||!m||m.tessera!=='ui'||m.kind!=='state')return;
st={props:m.props||{},variables:m.variables||{},value:m.value};fs.forEach(function(f){f(st)})});
addEventListener('load',function(){post({kind:'ready'});var h=function(){post({kind:'height',height:document.documentElement.scrollHeight})};h();
if(window.ResizeObserver)new ResizeObserver(h).observe(document.body)})})();`;

export const framePage = (html: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;font:14px/1.5 -apple-system,'Segoe UI',sans-serif;color:#1d2129}</style><script>${RUNTIME}</script></head><body>${html}</body></html>`;

/** A line diff (longest common subsequence) with unchanged runs cut to two lines of context. */
export function lineDiff(a: string[], b: string[]): { op: ' ' | '-' | '+'; text: string }[] {
  const out: { op: ' ' | '-' | '+'; text: string }[] = [];
  if (a.length * b.length > 4_000_000) {
    for (const text of a) out.push({ op: '-', text });
    for (const text of b) out.push({ op: '+', text });
    return out;
  }
  const m = a.length;
  const n = b.length;
  const lcs = Array.from({ length: m + 1 }, () => new Uint16Array(n + 1));
  for (let i = m - 1; i >= 0; i--)
    for (let j = n - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  let i = 0;
  let j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] });
      i++;
      j++;
    } else if (j < n && (i === m || lcs[i][j + 1] > lcs[i + 1][j])) out.push({ op: '+', text: b[j++] });
    else out.push({ op: '-', text: a[i++] });
  }
  // Unchanged runs longer than four lines: two lines at each end.
  const cut: typeof out = [];
  for (let k = 0; k < out.length;) {
    if (out[k].op !== ' ') {
      cut.push(out[k++]);
      continue;
    }
    let e = k;
    while (e < out.length && out[e].op === ' ') e++;
    const run = out.slice(k, e);
    if (run.length > 4) cut.push(...run.slice(0, 2), { op: ' ', text: '…' }, ...run.slice(-2));
    else cut.push(...run);
    k = e;
  }
  return cut;
}

/** Component types a DSL of the space uses (its draft and its published one). */
export function typesOf(dsl: Dsl): Set<string> {
  const types = new Set<string>();
  const walk = (n: UiNode) => {
    types.add(n.type);
    n.children?.forEach(walk);
  };
  dsl.pages.forEach((p) => walk(p.root));
  return types;
}

export function registerComponentRoutes(ctx: ServerContext, store: UiStore): void {
  const extensionView = (
    c: { type: string; label: { 'en-US': string; 'zh-CN': string }; props: object },
    lang: unknown,
  ) =>
    ({
      type: c.type,
      label: languageOf(lang) === 'zh-CN' ? c.label['zh-CN'] : c.label['en-US'],
      source: 'extension',
      props: c.props as Record<string, PropKind>,
      version: 0,
      note: '',
      created_by: '',
      created_at: 0,
    }) satisfies ComponentView;
  const importedView = (r: ComponentRow): ComponentView => ({
    type: r.type,
    label: r.label,
    source: 'imported',
    props: JSON.parse(r.props) as Record<string, PropKind>,
    version: Number(r.version),
    note: r.note,
    created_by: r.created_by,
    created_at: secs(r.created_at),
  });
  const versions = (spaceId: string, type?: string) => {
    let q = store.db.selectFrom('ui_component').selectAll().where('space_id', '=', spaceId);
    if (type) q = q.where('type', '=', type);
    return q.orderBy('type').orderBy('version', 'desc').execute();
  };

  ctx.route({
    ...ImportComponent,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      const type = `${IMPORTED_PREFIX}${body.name}`;
      const row = await store.db.transaction().execute(async (tx) => {
        const last = await tx
          .selectFrom('ui_component')
          .select('version')
          .where('space_id', '=', body.space_id)
          .where('type', '=', type)
          .orderBy('version', 'desc')
          .executeTakeFirst();
        const r: ComponentRow = {
          id: store.newId(),
          space_id: body.space_id,
          type,
          version: Number(last?.version ?? 0) + 1,
          label: body.label,
          props: JSON.stringify(body.props),
          html: body.html,
          note: body.note,
          created_by: caller!.userId,
          created_at: iso(),
        };
        await tx.insertInto('ui_component').values(r).execute();
        return r;
      });
      return { component: importedView(row) };
    },
  });
  ctx.route({
    ...ListComponents,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, headers }) => {
      const latest = new Map<string, ComponentRow>();
      for (const r of await versions(body.space_id)) if (!latest.has(r.type)) latest.set(r.type, r);
      return {
        components: [
          ...ctx
            .registry(UiComponents)
            .list()
            .map((c) => extensionView(c, headers['accept-language'])),
          ...[...latest.values()].map(importedView),
        ],
      };
    },
  });
  ctx.route({
    ...ListImported,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => ({ components: (await versions(body.space_id, body.type)).map(importedView) }),
  });
  ctx.route({
    ...CompareComponent,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      const all = await versions(body.space_id, body.type);
      const at = (v: number) => {
        const r = all.find((x) => Number(x.version) === v);
        if (!r) throw texts.error(404, 'noComponent', { type: body.type, version: String(v) });
        return r;
      };
      const a = at(body.from_version);
      const b = at(body.to_version);
      const pa = JSON.parse(a.props) as Record<string, string>;
      const pb = JSON.parse(b.props) as Record<string, string>;
      return {
        props_added: Object.keys(pb).filter((k) => !(k in pa)),
        props_removed: Object.keys(pa).filter((k) => !(k in pb)),
        props_changed: Object.keys(pb).filter((k) => k in pa && pa[k] !== pb[k]),
        lines: lineDiff(a.html.split('\n'), b.html.split('\n')).slice(0, 2000),
      };
    },
  });
  ctx.route({
    ...DeleteComponent,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      const all = await versions(body.space_id, body.type);
      const gone = body.version ? all.filter((r) => Number(r.version) === body.version) : all;
      if (!gone.length) throw texts.error(404, 'noComponent', { type: body.type, version: String(body.version ?? '') });
      // An app that draws it (draft or published) keeps it, unless other versions stay.
      if (gone.length === all.length) {
        const apps = await store.db
          .selectFrom('ui_app')
          .select(['name', 'dsl', 'published_dsl'])
          .where('space_id', '=', body.space_id)
          .execute();
        const using = apps.filter((a) =>
          [a.dsl, a.published_dsl].some((d) => d && typesOf(Dsl.parse(JSON.parse(d))).has(body.type)),
        );
        if (using.length)
          throw texts.error(409, 'componentInUse', { type: body.type, apps: using.map((a) => a.name).join(', ') });
      }
      await store.db
        .deleteFrom('ui_component')
        .where(
          'id',
          'in',
          gone.map((r) => r.id),
        )
        .execute();
      return {};
    },
  });

  // The frame of a custom component: for the builder (a member of the app's space) or the published app (by its
  // access, a type its published DSL uses).
  ctx.route({
    method: 'GET',
    path: '/api/ui_builder/v1/component/frame/:ui_id/:type',
    produces: 'text/html',
    auth: 'anonymous',
    rawResponse: true,
    rateLimit: { max: 600, key: 'ip' },
    summary: "A custom component's page, for the frame an app draws it in (sandboxed, no network)",
    params: z.object({ ui_id: z.string().min(1).max(32), type: z.string().min(1).max(64) }),
    query: z.object({ published: z.enum(['0', '1']).default('0'), v: z.coerce.number().int().min(1).optional() }),
    handler: async ({ params, query, caller }, reply) => {
      const a = await store.app(params.ui_id);
      if (query.published === '1') {
        if (!a.published_dsl) throw texts.error(404, 'notPublished', { id: a.id });
        const problem = await accessProblem(ctx, a, caller);
        if (problem) throw texts.error(problem === 'signIn' ? 401 : 403, problem);
        if (!typesOf(Dsl.parse(JSON.parse(a.published_dsl))).has(params.type))
          throw texts.error(404, 'noComponent', { type: params.type, version: '' });
      } else if (!caller || !(await ctx.service(SpacesService).roleOf(a.space_id, caller.userId)))
        throw texts.error(403, 'membersOnly');
      let html: string | undefined = ctx.registry(UiComponents).get(params.type)?.html;
      if (params.type.startsWith(IMPORTED_PREFIX)) {
        let q = store.db
          .selectFrom('ui_component')
          .select('html')
          .where('space_id', '=', a.space_id)
          .where('type', '=', params.type);
        if (query.v) q = q.where('version', '=', query.v);
        html = (await q.orderBy('version', 'desc').executeTakeFirst())?.html;
      }
      if (html === undefined) throw texts.error(404, 'noComponent', { type: params.type, version: '' });
      reply.header('content-security-policy', FRAME_CSP);
      reply.header('cache-control', 'no-store');
      reply.send(framePage(html), 'text/html; charset=utf-8');
    },
  });
}
