// API apps: an app of a space has a callback address, a signing secret (encrypted) and the event types it subscribes
// to. A studio event of the space (StudioEventSources) becomes a delivery per subscribed app, sent by the queue's job
// `api_apps.deliver`: signed (HMAC-SHA256 over "<timestamp>.<body>", as Stripe signs), retried with backoff on a
// failure, every attempt kept with the receiver's answer. The subscriptions are kept in memory for the bus handlers,
// so an event costs no database statement unless an app takes it.
import { createHmac, randomBytes } from 'node:crypto';
import {
  ApiError,
  ErrorCode,
  notFound,
  messageOf,
  parseStoredJson,
  parseStoredObject,
  parseStoredStrings,
} from '@tessera/sdk';
import {
  JobQueueService,
  OutboundHttpService,
  SecretsService,
  StudioEventSources,
  type ServerContext,
} from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import type { ApiAppView, DeliveryView } from '../shared/api.ts';

export const DELIVER_JOB = 'api_apps.deliver';
/** The event an app can be sent by hand to try its address. */
export const PING = 'ping';

export interface AppRow {
  id: string;
  space_id: string;
  creator_id: string;
  app_type: 'normal' | 'connector';
  name: string;
  connector_id: string;
  callback_url: string;
  verify_token: string;
  event_types: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

interface DeliveryRow {
  id: string;
  app_id: string;
  space_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'retrying' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  status_code: number;
  response: string;
  error: string;
  duration_ms: number;
  at: string;
}

interface ApiAppsDb {
  api_app: AppRow;
  api_app_delivery: DeliveryRow;
  api_app_delivery_attempt: AttemptRow;
}

export interface DeliveryOptions {
  /** The first retry's wait; each next one waits four times longer. */
  retryBaseMs: number;
  /** Attempts in all before a delivery is failed. */
  maxAttempts: number;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();
const secs = (v: string | null) => (v ? Math.floor(Date.parse(v) / 1000) : 0);
const refuse = (msg: string, key: string, params: Record<string, string> = {}) =>
  new ApiError(400, ErrorCode.INVALID_PARAMS, msg, '', { text: { key: `api_apps.${key}`, params } });

/** The signature of a body sent at `timestamp` (seconds): what a receiver recomputes with the app's secret. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export class ApiAppService {
  #ctx: ServerContext;
  #opts: DeliveryOptions;
  /** Subscribed apps by event type, then space. */
  #index = new Map<string, Map<string, AppRow[]>>();

  constructor(ctx: ServerContext, opts: DeliveryOptions) {
    this.#ctx = ctx;
    this.#opts = opts;
  }

  get #db(): Kysely<ApiAppsDb> {
    return this.#ctx.db;
  }

  get #secrets() {
    return this.#ctx.service(SecretsService);
  }

  view(a: AppRow, fullToken = false): ApiAppView {
    const token = this.#secrets.decrypt(a.verify_token);
    return {
      id: a.id,
      space_id: a.space_id,
      app_type: a.app_type,
      name: a.name,
      connector_id: a.connector_id,
      callback_url: a.callback_url,
      verify_token: fullToken ? token : this.#secrets.mask(token),
      event_types: parseStoredStrings(a.event_types, "an app's event types"),
      creator: a.creator_id,
      create_time: secs(a.created_at),
      update_time: secs(a.updated_at),
    };
  }

  async deliveryView(d: DeliveryRow): Promise<DeliveryView> {
    const history = await this.#db
      .selectFrom('api_app_delivery_attempt')
      .selectAll()
      .where('delivery_id', '=', d.id)
      .orderBy('attempt')
      .execute();
    return {
      delivery_id: d.id,
      api_app_id: d.app_id,
      event_id: d.event_id,
      event_type: d.event_type,
      status: d.status,
      attempts: Number(d.attempts),
      next_attempt_time: secs(d.next_attempt_at),
      payload: parseStoredObject(d.payload, "a delivery's payload"),
      create_time: secs(d.created_at),
      history: history.map((h) => ({
        attempt: Number(h.attempt),
        status_code: Number(h.status_code),
        response: h.response,
        error: h.error,
        duration_ms: Number(h.duration_ms),
        time: secs(h.at),
      })),
    };
  }

  // ------------------------------------------------------------------ apps

  async app(id: string, spaceId?: string): Promise<AppRow> {
    let q = this.#db.selectFrom('api_app').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
    if (spaceId) q = q.where('space_id', '=', spaceId);
    const a = await q.executeTakeFirst();
    if (!a) throw notFound(`There is no API app ${id}${spaceId ? ' in this space' : ''}.`);
    return a;
  }

  /** The space of a live app (the open API locates the space by the app). */
  async spaceOf(id: string): Promise<string | undefined> {
    const a = await this.#db
      .selectFrom('api_app')
      .select('space_id')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return a?.space_id;
  }

  async create(v: {
    spaceId: string;
    userId: string;
    name: string;
    appType: 'normal' | 'connector';
    connectorId: string;
  }): Promise<ApiAppView> {
    if (v.appType === 'connector' && !v.connectorId)
      throw refuse('A connector API app names its connector (connector_id).', 'connector');
    const now = iso();
    const row: AppRow = {
      id: this.#ctx.host.newId(),
      space_id: v.spaceId,
      creator_id: v.userId,
      app_type: v.appType,
      name: v.name,
      connector_id: v.appType === 'connector' ? v.connectorId : '',
      callback_url: '',
      verify_token: this.#secrets.encrypt(randomBytes(24).toString('base64url')),
      event_types: '[]',
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await this.#db.insertInto('api_app').values(row).execute();
    return this.view(row, true);
  }

  async update(
    id: string,
    spaceId: string,
    v: { name?: string; callbackUrl?: string; regenerateToken?: boolean },
  ): Promise<ApiAppView> {
    const a = await this.app(id, spaceId);
    const changed: AppRow = { ...a, updated_at: iso() };
    if (v.name !== undefined) changed.name = v.name;
    if (v.regenerateToken) changed.verify_token = this.#secrets.encrypt(randomBytes(24).toString('base64url'));
    if (v.callbackUrl !== undefined && v.callbackUrl !== a.callback_url) {
      if (v.callbackUrl) await this.#verify(v.callbackUrl, this.#secrets.decrypt(changed.verify_token));
      changed.callback_url = v.callbackUrl;
    }
    const { id: _id, ...set } = changed;
    await this.#db.updateTable('api_app').set(set).where('id', '=', id).execute();
    this.#reindex(changed);
    return this.view(changed, !!v.regenerateToken);
  }

  async remove(id: string, spaceId: string): Promise<void> {
    const a = await this.app(id, spaceId);
    const gone = { ...a, deleted_at: iso() };
    await this.#db.updateTable('api_app').set({ deleted_at: gone.deleted_at }).where('id', '=', id).execute();
    this.#reindex(gone);
  }

  async list(spaceIds: string[], appType: 'normal' | 'connector' | undefined, size: number, after?: string) {
    if (!spaceIds.length) return { items: [], has_more: false, next: '' };
    let q = this.#db
      .selectFrom('api_app')
      .selectAll()
      .where('space_id', 'in', spaceIds)
      .where('deleted_at', 'is', null);
    if (appType) q = q.where('app_type', '=', appType);
    if (after) q = q.where('id', '<', after);
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size + 1)
      .execute();
    const page = rows.slice(0, size);
    return {
      items: page.map((r) => this.view(r)),
      has_more: rows.length > size,
      next: rows.length > size ? (page.at(-1)?.id ?? '') : '',
    };
  }

  /** The event types an app may subscribe to: the studio's events, and `ping`. */
  eventTypes(): { event_type: string; name: Record<string, string> }[] {
    return [
      ...this.#ctx
        .registry(StudioEventSources)
        .list()
        .map((s) => ({ event_type: s.key, name: s.label })),
      { event_type: PING, name: { 'en-US': 'A test event sent by hand', 'zh-CN': '手动发送的测试事件' } },
    ];
  }

  async subscribe(id: string, spaceId: string, types: string[], on: boolean): Promise<ApiAppView> {
    const a = await this.app(id, spaceId);
    const known = new Set(this.eventTypes().map((e) => e.event_type));
    const unknown = types.filter((t) => !known.has(t));
    if (unknown.length)
      throw refuse(
        `There is no event type ${unknown.map((t) => `"${t}"`).join(', ')} (there are ${[...known].join(', ')}).`,
        'eventType',
        { types: unknown.map((t) => `"${t}"`).join(', '), known: [...known].join(', ') },
      );
    const now = new Set(parseStoredStrings(a.event_types, "an app's event types"));
    for (const t of types)
      if (on) now.add(t);
      else now.delete(t);
    const changed = { ...a, event_types: JSON.stringify([...now].sort()), updated_at: iso() };
    await this.#db
      .updateTable('api_app')
      .set({ event_types: changed.event_types, updated_at: changed.updated_at })
      .where('id', '=', id)
      .execute();
    this.#reindex(changed);
    return this.view(changed);
  }

  /**
   * An address is taken once it answers a signed challenge (`{"type":"url_verification","challenge":...}` answered
   * with `{"challenge": ...}`), as Slack and Feishu check theirs: it is the receiver's, and it is up.
   */
  async #verify(url: string, secret: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse(`"${url}" is not an address: give an http(s) URL.`, 'badUrl', { url });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw refuse(`"${url}" is not an address: give an http(s) URL.`, 'badUrl', { url });
    const challenge = randomBytes(12).toString('hex');
    const body = JSON.stringify({ type: 'url_verification', challenge });
    const ts = Math.floor(Date.now() / 1000);
    let answer: unknown;
    try {
      const res = await this.#ctx.service(OutboundHttpService).fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-tessera-event': 'url_verification',
          'x-tessera-timestamp': String(ts),
          'x-tessera-signature': signature(secret, ts, body),
        },
        body,
        timeoutMs: 10_000,
        maxBytes: 64 * 1024,
      });
      answer = res.ok ? await res.json() : `HTTP ${res.status}`;
    } catch (e) {
      answer = messageOf(e);
    }
    if ((answer as { challenge?: unknown })?.challenge !== challenge)
      throw refuse(
        `The address did not answer the check (${typeof answer === 'string' ? answer : 'another answer'}): it must answer a POST of {"type": "url_verification", "challenge": "..."} with {"challenge": "..."}.`,
        'verify',
        { answer: typeof answer === 'string' ? answer : '' },
      );
  }

  // ------------------------------------------------------------------ deliveries

  async deliveries(appId: string, spaceId: string, page: number, size: number) {
    await this.app(appId, spaceId);
    const [{ n }] = await this.#db
      .selectFrom('api_app_delivery')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId)
      .execute();
    const rows = await this.#db
      .selectFrom('api_app_delivery')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { deliveries: await Promise.all(rows.map((d) => this.deliveryView(d))), total: Number(n) };
  }

  /** Records a delivery of an event to an app and hands it to the queue. */
  async enqueue(app: AppRow, eventType: string, eventId: string, data: Record<string, unknown>): Promise<DeliveryRow> {
    const d = await this.#record(app, eventType, eventId, data);
    await this.#ctx.service(JobQueueService).enqueue(DELIVER_JOB, { delivery_id: d.id });
    return d;
  }

  async redeliver(deliveryId: string, spaceId: string): Promise<DeliveryView> {
    const d = await this.#db
      .selectFrom('api_app_delivery')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!d) throw notFound(`There is no delivery ${deliveryId} in this space.`);
    return this.deliveryView(await this.attempt(d, true));
  }

  async ping(appId: string, spaceId: string): Promise<DeliveryView> {
    const a = await this.app(appId, spaceId);
    if (!a.callback_url) throw refuse('Set the app’s callback address first.', 'noAddress');
    const d = await this.#record(a, PING, this.#ctx.host.newId(), { message: 'A test event from the studio.' });
    return this.deliveryView(await this.attempt(d, true));
  }

  async #record(app: AppRow, eventType: string, eventId: string, data: Record<string, unknown>): Promise<DeliveryRow> {
    const d: DeliveryRow = {
      id: this.#ctx.host.newId(),
      app_id: app.id,
      space_id: app.space_id,
      event_id: eventId,
      event_type: eventType,
      payload: JSON.stringify(data),
      status: 'pending',
      attempts: 0,
      next_attempt_at: null,
      created_at: iso(),
    };
    await this.#db.insertInto('api_app_delivery').values(d).execute();
    return d;
  }

  /** The queue's job: one attempt of a delivery that is due. */
  async deliverById(id: string): Promise<void> {
    const d = await this.#db.selectFrom('api_app_delivery').selectAll().where('id', '=', id).executeTakeFirst();
    if (!d || (d.status !== 'pending' && d.status !== 'retrying')) return;
    await this.attempt(d, false);
  }

  /**
   * Sends a delivery once and keeps the answer. A failure is retried after a wait (4× longer each time) until
   * `maxAttempts`; a hand-made attempt (`byHand`) is one more try and schedules nothing.
   */
  async attempt(d: DeliveryRow, byHand: boolean): Promise<DeliveryRow> {
    const app = await this.#db.selectFrom('api_app').selectAll().where('id', '=', d.app_id).executeTakeFirst();
    const attempt = Number(d.attempts) + 1;
    const started = Date.now();
    let statusCode = 0;
    let response = '';
    let error = '';
    if (!app || app.deleted_at) error = 'The API app was deleted.';
    else if (!app.callback_url) error = 'The API app has no callback address.';
    else {
      const ts = Math.floor(started / 1000);
      const body = JSON.stringify({
        header: {
          event_id: d.event_id,
          event_type: d.event_type,
          create_time: secs(d.created_at),
          api_app_id: app.id,
          delivery_id: d.id,
          attempt,
        },
        event: parseStoredJson(d.payload, 'an event'),
      });
      try {
        const res = await this.#ctx.service(OutboundHttpService).fetch(app.callback_url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Tessera-Callbacks/1',
            'x-tessera-event': d.event_type,
            'x-tessera-delivery': d.id,
            'x-tessera-timestamp': String(ts),
            'x-tessera-signature': signature(this.#secrets.decrypt(app.verify_token), ts, body),
          },
          body,
          timeoutMs: 10_000,
          maxBytes: 256 * 1024,
          maxRedirects: 0,
        });
        statusCode = res.status;
        response = (await res.text()).slice(0, 2000);
        if (!res.ok) error = `The receiver answered HTTP ${res.status}.`;
      } catch (e) {
        error = messageOf(e).slice(0, 1000);
      }
    }
    const ok = !error;
    const retry = !ok && !byHand && attempt < this.#opts.maxAttempts && !!app && !app.deleted_at;
    const wait = this.#opts.retryBaseMs * 4 ** (attempt - 1);
    const changed: DeliveryRow = {
      ...d,
      attempts: attempt,
      status: ok ? 'succeeded' : retry ? 'retrying' : 'failed',
      next_attempt_at: retry ? iso(Date.now() + wait) : null,
    };
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('api_app_delivery_attempt')
        .values({
          delivery_id: d.id,
          attempt,
          status_code: statusCode,
          response,
          error,
          duration_ms: Date.now() - started,
          at: iso(started),
        })
        .execute();
      await trx
        .updateTable('api_app_delivery')
        .set({ attempts: attempt, status: changed.status, next_attempt_at: changed.next_attempt_at })
        .where('id', '=', d.id)
        .execute();
    });
    if (retry) await this.#ctx.service(JobQueueService).enqueue(DELIVER_JOB, { delivery_id: d.id }, { delayMs: wait });
    return changed;
  }

  /** Deliveries a stopped studio left waiting go on (their waits restart from now). */
  async resume(): Promise<number> {
    const due = await this.#db
      .selectFrom('api_app_delivery')
      .select(['id', 'next_attempt_at'])
      .where('status', 'in', ['pending', 'retrying'])
      .execute();
    for (const d of due)
      await this.#ctx
        .service(JobQueueService)
        .enqueue(
          DELIVER_JOB,
          { delivery_id: d.id },
          { delayMs: Math.max(0, Date.parse(d.next_attempt_at ?? '') - Date.now()) || 0 },
        );
    return due.length;
  }

  // ------------------------------------------------------------------ events

  async loadIndex(): Promise<void> {
    const rows = await this.#db.selectFrom('api_app').selectAll().where('deleted_at', 'is', null).execute();
    this.#index.clear();
    for (const r of rows) this.#reindex(r);
  }

  #reindex(app: AppRow): void {
    for (const bySpace of this.#index.values())
      for (const [space, list] of bySpace)
        bySpace.set(
          space,
          list.filter((r) => r.id !== app.id),
        );
    if (app.deleted_at || !app.callback_url) return;
    for (const type of parseStoredStrings(app.event_types, "an app's event types")) {
      const bySpace = this.#index.get(type) ?? new Map<string, AppRow[]>();
      bySpace.set(app.space_id, [...(bySpace.get(app.space_id) ?? []), app]);
      this.#index.set(type, bySpace);
    }
  }

  /** A studio event: a delivery to each app of its space subscribed to its type. */
  onEvent(type: string, spaceId: string | undefined, data: Record<string, unknown>): void {
    const apps = spaceId ? this.#index.get(type)?.get(spaceId) : undefined;
    if (!apps?.length) return;
    const eventId = this.#ctx.host.newId();
    for (const app of apps)
      void this.enqueue(app, type, eventId, data).catch((e: unknown) => this.#ctx.report(e, { api_app_id: app.id }));
  }
}
