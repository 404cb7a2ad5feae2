// Cards: drafts and published versions, templates, bindings to plugin APIs and workflows, and what a bot's answer
// shows when a bound tool answered (the card filled with its output, or its text where cards cannot show).
import { describeError, parseStoredJson } from '@tessera/sdk';
import type { Language } from '@tessera/sdk';
import { containsText, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import type { ToolOutputContext, ToolOutputMessage } from '@tessera/ext-bots/shared';
import { PluginsService, type APIParameter } from '@tessera/ext-plugins/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  BizType,
  CARD_LIMITS,
  CardDsl,
  CardStatus,
  problemOf,
  renderCard,
  valueAt,
  type CardBind,
  type CardInfo,
  type CardMessage,
} from '../shared/index.ts';
import { cardSvg, svgDataUrl } from './svg.ts';
import { BUILTIN_TEMPLATES } from './templates.ts';
import { texts } from './texts.ts';

interface CardRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  dsl: string;
  version_num: number;
  modified: number;
  thumbnail: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
interface VersionRow {
  card_id: string;
  version_num: number;
  dsl: string;
  description: string;
  creator_id: string;
  created_at: string;
}
interface BindRow {
  space_id: string;
  biz_type: number;
  biz_id: string;
  plugin_id: string;
  card_id: string;
  mapping_rule: string;
  max_display_rows: number;
  llm_text_card: number;
  created_at: string;
}
interface CardsDb {
  cards_card: CardRow;
  cards_version: VersionRow;
  cards_bind: BindRow;
  cards_template: { id: string; space_id: string; name: string; dsl: string; created_at: string };
}

/** The channels that draw cards: the editor's debug chat, the chat page and Web SDK, the open API. */
const SHOWS_CARDS = new Set(['debug', '999', '1024']);
const EMPTY: CardDsl = { version: 1, body: [{ type: 'text', text: 'Hello {{name}}' }], sample: { name: 'world' } };
const iso = () => new Date().toISOString();
const ms = (s: string) => Date.parse(s);

/** A DSL checked, or a clear 400 naming the first problem. */
/** A stored card (written checked against CardDsl) and a binding's mapping, read back as what they are. */
const dslOf = (text: string): CardDsl => parseStoredJson(text, 'a card', CardDsl);
const MappingRule = z.record(z.string(), z.string());
const mappingOf = (text: string): Record<string, string> =>
  parseStoredJson(text, "a card binding's mapping", MappingRule);

export function parseDsl(value: unknown): CardDsl {
  const r = CardDsl.safeParse(value);
  if (r.success) return r.data;
  throw texts.error(400, 'badDsl', { problem: problemOf(r.error) });
}

/** The dotted paths of a plugin API's response fields (arrays as the field itself). */
function pathsOf(params: APIParameter[], prefix = ''): string[] {
  const out: string[] = [];
  for (const p of params) {
    const path = prefix ? `${prefix}.${p.name}` : p.name;
    out.push(path);
    if (p.sub_parameters?.length && p.type !== 5) out.push(...pathsOf(p.sub_parameters, path));
  }
  return out.slice(0, 200);
}

export class Cards {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  /** Published DSLs by card and version (a version never changes). */
  readonly #published = new Map<string, CardDsl>();
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<CardsDb> {
    return this.#ctx.db;
  }

  info(r: CardRow): CardInfo {
    return {
      card_id: r.id,
      space_id: r.space_id,
      name: r.name,
      description: r.description,
      card_status: Number(r.version_num) > 0 ? CardStatus.Published : CardStatus.Draft,
      version_num: Number(r.version_num),
      thumbnail: r.thumbnail,
      modified: Number(r.modified) === 1,
      updated_at: ms(r.updated_at),
    };
  }

  async spaceOf(cardId: string): Promise<string | undefined> {
    const r = await this.db.selectFrom('cards_card').select('space_id').where('id', '=', cardId).executeTakeFirst();
    return r?.space_id;
  }

  async get(cardId: string): Promise<CardRow> {
    const r = await this.db.selectFrom('cards_card').selectAll().where('id', '=', cardId).executeTakeFirst();
    if (!r) throw texts.error(404, 'noCard', { id: cardId });
    return r;
  }

  async list(spaceId: string, q: { name?: string; page: number; size: number }) {
    let base = this.db.selectFrom('cards_card').where('space_id', '=', spaceId);
    // By name, in any case (PostgreSQL's LIKE tells cases apart).
    const name = q.name?.trim().toLowerCase();
    if (name) base = base.where(containsText('name', name));
    const [rows, total] = await Promise.all([
      base
        .selectAll()
        .orderBy('updated_at', 'desc')
        .limit(q.size)
        .offset((q.page - 1) * q.size)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { cards: rows.map((r) => this.info(r)), total: Number(total?.n ?? 0) };
  }

  /** A DSL filled with data (its sample by default) as a chat shows it, with its thumbnail. */
  preview(value: unknown, data: unknown, maxRows: number) {
    const dsl = parseDsl(value);
    const card = renderCard(dsl, data ?? dsl.sample ?? {}, maxRows);
    return { card, thumbnail: svgDataUrl(cardSvg(card.title, card.body)) };
  }

  /** Whether a DSL is within a card's limits, and the first problem. */
  checkLength(value: unknown) {
    const bytes = JSON.stringify(value ?? null).length;
    try {
      parseDsl(value);
      return { ok: true, bytes, limit: CARD_LIMITS.bytes, problem: '' };
    } catch (e) {
      return { ok: false, bytes, limit: CARD_LIMITS.bytes, problem: describeError(e) };
    }
  }

  thumbnail(dsl: CardDsl): string {
    const shown = renderCard(dsl, dsl.sample ?? {}, 5);
    return svgDataUrl(cardSvg(shown.title, shown.body));
  }

  async create(
    spaceId: string,
    userId: string,
    c: { name: string; description: string; template_id?: string; dsl?: unknown },
  ): Promise<CardRow> {
    const dsl =
      c.dsl !== undefined ? parseDsl(c.dsl) : c.template_id ? (await this.template(spaceId, c.template_id)).dsl : EMPTY;
    const row: CardRow = {
      id: this.#ctx.host.newId(),
      space_id: spaceId,
      name: c.name,
      description: c.description,
      dsl: JSON.stringify(dsl),
      version_num: 0,
      modified: 1,
      thumbnail: this.thumbnail(dsl),
      creator_id: userId,
      created_at: iso(),
      updated_at: iso(),
    };
    await this.db.insertInto('cards_card').values(row).execute();
    return row;
  }

  async update(cardId: string, patch: { name?: string; description?: string; dsl?: unknown }): Promise<CardRow> {
    const row = await this.get(cardId);
    const next: Partial<CardRow> = { updated_at: iso() };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.dsl !== undefined) {
      const dsl = parseDsl(patch.dsl);
      next.dsl = JSON.stringify(dsl);
      next.thumbnail = this.thumbnail(dsl);
      next.modified = 1;
    }
    await this.db.updateTable('cards_card').set(next).where('id', '=', cardId).execute();
    return { ...row, ...next };
  }

  async publish(cardId: string, userId: string, description: string): Promise<CardRow> {
    const row = await this.get(cardId);
    const version_num = Number(row.version_num) + 1;
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('cards_version')
        .values({ card_id: cardId, version_num, dsl: row.dsl, description, creator_id: userId, created_at: iso() })
        .execute();
      await tx
        .updateTable('cards_card')
        .set({ version_num, modified: 0, updated_at: iso() })
        .where('id', '=', cardId)
        .execute();
    });
    return { ...row, version_num, modified: 0 };
  }

  async versions(cardId: string) {
    const rows = await this.db
      .selectFrom('cards_version')
      .selectAll()
      .where('card_id', '=', cardId)
      .orderBy('version_num', 'desc')
      .execute();
    return rows.map((v) => ({
      version_num: Number(v.version_num),
      description: v.description,
      created_at: ms(v.created_at),
      dsl: dslOf(v.dsl),
    }));
  }

  async remove(cardId: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('cards_bind').where('card_id', '=', cardId).execute();
      await tx.deleteFrom('cards_version').where('card_id', '=', cardId).execute();
      await tx.deleteFrom('cards_card').where('id', '=', cardId).execute();
    });
  }

  // ---------------------------------------------------------------- templates

  async templates(spaceId: string, language: Language) {
    const own = await this.db
      .selectFrom('cards_template')
      .selectAll()
      .where('space_id', '=', spaceId)
      .orderBy('created_at', 'desc')
      .execute();
    return [
      ...BUILTIN_TEMPLATES.map((t) => ({
        template_id: t.template_id,
        name: t.name[language],
        builtin: true,
        dsl: t.dsl,
      })),
      ...own.map((t) => ({ template_id: t.id, name: t.name, builtin: false, dsl: dslOf(t.dsl) })),
    ];
  }

  async template(spaceId: string, id: string) {
    const builtin = BUILTIN_TEMPLATES.find((t) => t.template_id === id);
    if (builtin) return { dsl: builtin.dsl };
    const t = await this.db
      .selectFrom('cards_template')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!t) throw texts.error(404, 'noTemplate', { id });
    return { dsl: dslOf(t.dsl) };
  }

  async saveTemplate(spaceId: string, name: string, dsl: unknown) {
    const row = {
      id: this.#ctx.host.newId(),
      space_id: spaceId,
      name,
      dsl: JSON.stringify(parseDsl(dsl)),
      created_at: iso(),
    };
    await this.db.insertInto('cards_template').values(row).execute();
    return { template_id: row.id, name, builtin: false, dsl: dslOf(row.dsl) };
  }

  async deleteTemplate(spaceId: string, id: string): Promise<void> {
    if (BUILTIN_TEMPLATES.some((t) => t.template_id === id)) throw texts.error(400, 'builtinTemplate');
    const r = await this.db
      .deleteFrom('cards_template')
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw texts.error(404, 'noTemplate', { id });
  }

  // ---------------------------------------------------------------- bindings

  bindView(b: BindRow): CardBind {
    return {
      card_id: b.card_id,
      biz_type: Number(b.biz_type),
      biz_id: b.biz_id,
      plugin_id: b.plugin_id,
      mapping_rule: mappingOf(b.mapping_rule),
      max_display_rows: Number(b.max_display_rows),
      llm_text_card: Number(b.llm_text_card) === 1,
    };
  }

  /** The plugin APIs (published) and workflows of the space a card can be bound to, with their output's fields. */
  async targets(spaceId: string) {
    const plugins = this.#ctx.optionalService(PluginsService);
    const runner = this.#ctx.optionalService(WorkflowRunnerService);
    const tools = (await plugins?.tools(spaceId)) ?? [];
    const flows = (await runner?.list?.(spaceId)) ?? [];
    return [
      ...tools.map((t) => ({
        biz_type: BizType.PluginApi,
        biz_id: t.api_id,
        plugin_id: t.plugin_id,
        name: `${t.plugin_name} / ${t.name}`,
        fields: pathsOf(t.response_params),
      })),
      ...flows.map((w) => ({
        biz_type: BizType.Workflow,
        biz_id: w.workflow_id,
        plugin_id: '',
        name: w.name,
        fields: w.outputs,
      })),
    ];
  }

  async #targetName(
    spaceId: string,
    b: Pick<BindRow, 'biz_type' | 'biz_id' | 'plugin_id'>,
  ): Promise<string | undefined> {
    if (Number(b.biz_type) === BizType.PluginApi) {
      const plugins = this.#ctx.optionalService(PluginsService);
      const t =
        (await plugins?.tool(spaceId, b.plugin_id, b.biz_id).catch(() => undefined)) ??
        (await plugins?.tool(spaceId, b.plugin_id, b.biz_id, 'draft').catch(() => undefined));
      return t ? `${t.plugin_name} / ${t.name}` : undefined;
    }
    const w = await this.#ctx
      .optionalService(WorkflowRunnerService)
      ?.info(b.biz_id, spaceId)
      .catch(() => undefined);
    return w?.name;
  }

  async bind(card: CardRow, b: Omit<CardBind, 'card_id'>): Promise<CardBind> {
    if (!(await this.#targetName(card.space_id, b))) throw texts.error(400, 'noTarget', { id: b.biz_id });
    const row: BindRow = {
      space_id: card.space_id,
      biz_type: b.biz_type,
      biz_id: b.biz_id,
      plugin_id: b.biz_type === BizType.PluginApi ? b.plugin_id : '',
      card_id: card.id,
      mapping_rule: JSON.stringify(b.mapping_rule),
      max_display_rows: b.max_display_rows,
      llm_text_card: b.llm_text_card ? 1 : 0,
      created_at: iso(),
    };
    await this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('cards_bind')
        .where('space_id', '=', row.space_id)
        .where('biz_type', '=', row.biz_type)
        .where('biz_id', '=', row.biz_id)
        .execute();
      await tx.insertInto('cards_bind').values(row).execute();
    });
    return this.bindView(row);
  }

  async unbind(spaceId: string, bizType: number, bizId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('cards_bind')
      .where('space_id', '=', spaceId)
      .where('biz_type', '=', bizType)
      .where('biz_id', '=', bizId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async bindsOf(card: CardRow) {
    const rows = await this.db.selectFrom('cards_bind').selectAll().where('card_id', '=', card.id).execute();
    return Promise.all(
      rows.map(async (b) => ({
        ...this.bindView(b),
        target_name: (await this.#targetName(card.space_id, b)) ?? b.biz_id,
      })),
    );
  }

  async bindOf(spaceId: string, bizType: number, bizId: string) {
    const b = await this.db
      .selectFrom('cards_bind')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('biz_type', '=', bizType)
      .where('biz_id', '=', bizId)
      .executeTakeFirst();
    return b ? this.bindView(b) : undefined;
  }

  /** Which of these APIs or workflows have a card. */
  async bindStatus(spaceId: string, bizType: number, bizIds: string[]) {
    if (!bizIds.length) return {};
    const rows = await this.db
      .selectFrom('cards_bind')
      .select(['biz_id', 'card_id'])
      .where('space_id', '=', spaceId)
      .where('biz_type', '=', bizType)
      .where('biz_id', 'in', bizIds)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.biz_id, r.card_id]));
  }

  // ---------------------------------------------------------------- in a bot's answer

  async #publishedDsl(cardId: string, version: number): Promise<CardDsl | undefined> {
    const key = `${cardId}:${version}`;
    const hit = this.#published.get(key);
    if (hit) return hit;
    const v = await this.db
      .selectFrom('cards_version')
      .select('dsl')
      .where('card_id', '=', cardId)
      .where('version_num', '=', version)
      .executeTakeFirst();
    if (!v) return undefined;
    const dsl = dslOf(v.dsl);
    if (this.#published.size > 500) this.#published.clear();
    this.#published.set(key, dsl);
    return dsl;
  }

  /** The data a card is filled with: the output's own fields and `output`, then the binding's mapped variables. */
  static dataOf(output: unknown, mapping: Record<string, string>): Record<string, unknown> {
    const data: Record<string, unknown> =
      output && typeof output === 'object' && !Array.isArray(output) ? { ...output } : {};
    data.output = output;
    for (const [name, path] of Object.entries(mapping)) data[name] = path ? valueAt(output, path) : output;
    return data;
  }

  /** The card a bound tool's output shows in a bot's answer (its latest published version), or its text. */
  async view(t: ToolOutputContext): Promise<ToolOutputMessage | undefined> {
    const bizType = t.tool.source.kind === 'plugin_api' ? BizType.PluginApi : BizType.Workflow;
    const b = await this.db
      .selectFrom('cards_bind')
      .innerJoin('cards_card', 'cards_card.id', 'cards_bind.card_id')
      .select([
        'cards_bind.card_id',
        'cards_bind.mapping_rule',
        'cards_bind.max_display_rows',
        'cards_bind.llm_text_card',
        'cards_card.name',
        'cards_card.version_num',
      ])
      .where('cards_bind.space_id', '=', t.spaceId)
      .where('cards_bind.biz_type', '=', bizType)
      .where('cards_bind.biz_id', '=', t.tool.source.id)
      .executeTakeFirst();
    if (!b || Number(b.version_num) === 0) return undefined;
    const dsl = await this.#publishedDsl(b.card_id, Number(b.version_num));
    if (!dsl) return undefined;
    const shown = renderCard(dsl, Cards.dataOf(t.output, mappingOf(b.mapping_rule)), Number(b.max_display_rows));
    const meta = {
      card_id: b.card_id,
      ...(Number(b.llm_text_card) === 1 ? {} : { llm_text: 'hide' }),
    };
    if (!SHOWS_CARDS.has(t.connectorId)) return { content_type: 'text', content: shown.text, meta_data: meta };
    const message: CardMessage = {
      card_id: b.card_id,
      version_num: Number(b.version_num),
      name: b.name,
      ...(shown.title !== undefined ? { title: shown.title } : {}),
      body: shown.body,
      text: shown.text,
    };
    return { content_type: 'card', content: JSON.stringify(message), meta_data: meta };
  }
}
