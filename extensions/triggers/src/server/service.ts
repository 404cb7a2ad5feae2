// Triggers: a row per trigger, a row per firing. A cron trigger that is open has a schedule with the host
// (SchedulesService, key `triggers:<id>`); a webhook trigger a secret (encrypted); an event trigger an entry in the
// in-memory index the bus handlers read (so a studio event costs no database statement unless a trigger matches).
// A firing records its inputs, runs the workflow (the latest published version; a test firing the draft) and keeps
// how it ended.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  ApiError,
  type EndpointBody,
  ErrorCode,
  fieldOf,
  isRecord,
  jsonWithin,
  parseStoredJson,
  parseStoredObject,
} from '@tessera/sdk';
import {
  JobQueueService,
  SchedulesService,
  SecretsService,
  StudioEventSources,
  type ScheduledFiring,
  type StudioEventSource,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import { WorkflowRunnerService, type WorkflowSummary } from '@tessera/workflow-sdk';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  TriggerConfig,
  TriggerPayload,
  type SaveTrigger,
  type TriggerEventView,
  type TriggerView,
} from '../shared/api.ts';
import { TriggerRunResult, TriggerSetType, TriggerStatus, TriggerType } from '../shared/index.ts';

export const CRON_JOB = 'triggers.cron';
export const RUN_JOB = 'triggers.run';
export const WEBHOOK = 'webhook';

export interface TriggerRow {
  id: string;
  space_id: string;
  workflow_id: string;
  project_id: string;
  name: string;
  trigger_type: number;
  status: number;
  set_type: number;
  event_id: string;
  connector_id: string;
  config: string;
  payload: string;
  secret: string | null;
  creator_id: string;
  last_fired_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

interface EventRow {
  id: string;
  trigger_id: string;
  space_id: string;
  source: TriggerEventView['source'];
  draft: number;
  run_result: number;
  execute_id: string;
  input: string;
  output: string | null;
  error: string;
  scheduled_for: string | null;
  missed: number;
  fired_at: string;
  ended_at: string | null;
}

interface TriggersDb {
  workflow_trigger: TriggerRow;
  workflow_trigger_event: EventRow;
}

type Config = z.output<typeof TriggerConfig>;
type Payload = z.output<typeof TriggerPayload>;
/** A trigger's settings as stored (written checked; read back keeping any key a later version adds). */
const StoredConfig = TriggerConfig.loose();
const StoredPayload = TriggerPayload.loose();
const configOf = (row: { config: string }): Config => parseStoredJson(row.config, "a trigger's settings", StoredConfig);
const payloadOf = (row: { payload: string }): Payload =>
  parseStoredJson(row.payload, "a trigger's inputs", StoredPayload);
type SaveBody = z.output<EndpointBody<typeof SaveTrigger>>;

const iso = () => new Date().toISOString();
const secs = (v: string | null | undefined) => (v ? Math.floor(Date.parse(v) / 1000) : 0);
const scheduleKey = (id: string) => `triggers:${id}`;

/** A refusal with its text in the studio's languages (ErrorTexts keys `triggers.*`, see texts.ts). */
export function refuse(status: number, msg: string, key: string, params: Record<string, string> = {}): ApiError {
  const codes: Record<number, number> = {
    401: ErrorCode.UNAUTHENTICATED,
    404: ErrorCode.NOT_FOUND,
    409: ErrorCode.CONFLICT,
    413: ErrorCode.PAYLOAD_TOO_LARGE,
  };
  const code = codes[status] ?? ErrorCode.INVALID_PARAMS;
  return new ApiError(status, code, msg, '', { text: { key: `triggers.${key}`, params } });
}

/** The value at a dotted path (`body.user.name`, `items.0`) of what a firing brings. */
export function pick(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = fieldOf(v, part);
  }
  return v;
}

/** Runs a trigger started: the bus handlers skip the events they raise, so triggers never start each other in a loop. */
const fromTrigger = new AsyncLocalStorage<string>();

export class TriggerService {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext;
  /** Open event triggers by event key, then space (what the bus handlers read). */
  #index = new Map<string, Map<string, TriggerRow[]>>();

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  /** The extension's tables, typed. */
  get #db(): Kysely<TriggersDb> {
    return this.#ctx.db;
  }

  get #runner() {
    return this.#ctx.service(WorkflowRunnerService);
  }

  // ------------------------------------------------------------------ views

  view(row: TriggerRow, nextRunAt?: string | null): TriggerView {
    const config = configOf(row);
    const payload = payloadOf(row);
    const isWebhook = row.trigger_type === TriggerType.EVENT && row.event_id === WEBHOOK;
    return {
      trigger_id: row.id,
      space_id: row.space_id,
      workflow_id: row.workflow_id,
      project_id: row.project_id,
      name: row.name,
      trigger_type: Number(row.trigger_type),
      status: Number(row.status),
      set_type: Number(row.set_type),
      event_id: row.event_id,
      connector_id: row.connector_id,
      config,
      payload,
      creator: row.creator_id,
      create_time: secs(row.created_at),
      update_time: secs(row.updated_at),
      next_fire_time: secs(nextRunAt),
      last_fire_time: secs(row.last_fired_at),
      webhook: isWebhook
        ? {
            url: this.webhookUrl(row.id),
            auth: config.auth ?? 'path',
            secret_hint: row.secret ? this.#ctx.service(SecretsService).mask(this.#secret(row)) : '',
          }
        : null,
    };
  }

  eventView(e: EventRow): TriggerEventView {
    return {
      event_id: e.id,
      trigger_id: e.trigger_id,
      source: e.source,
      run_result: Number(e.run_result),
      execute_id: e.execute_id,
      input: parseStoredObject(e.input, "an event's input"),
      output: e.output ? parseStoredObject(e.output, "an event's output") : null,
      error: e.error,
      fire_time: secs(e.fired_at),
      end_time: secs(e.ended_at),
      scheduled_time: secs(e.scheduled_for),
      missed: Number(e.missed),
    };
  }

  /** The address a webhook trigger is called at (with `/<secret>` after it when the secret travels in the path). */
  webhookUrl(id: string): string {
    return `${this.#ctx.host.publicUrl.replace(/\/$/, '')}/api/trigger/webhook/${id}`;
  }

  async withNextTime(row: TriggerRow): Promise<TriggerView> {
    const state =
      row.trigger_type === TriggerType.CRONJOB && row.status === TriggerStatus.OPEN
        ? await this.#ctx.service(SchedulesService).get(scheduleKey(row.id))
        : undefined;
    return this.view(row, state?.nextRunAt);
  }

  // ------------------------------------------------------------------ reading

  async row(spaceId: string, id: string): Promise<TriggerRow> {
    const row = await this.#db
      .selectFrom('workflow_trigger')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw refuse(404, `There is no trigger ${id} in this space.`, 'missing', { id });
    return row;
  }

  async list(spaceId: string, workflowId?: string, openOnly = false): Promise<TriggerView[]> {
    let q = this.#db
      .selectFrom('workflow_trigger')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is', null);
    if (workflowId) q = q.where('workflow_id', '=', workflowId);
    if (openOnly) q = q.where('status', '=', TriggerStatus.OPEN);
    const rows = await q.orderBy('created_at').execute();
    return Promise.all(rows.map((r) => this.withNextTime(r)));
  }

  async events(
    spaceId: string,
    triggerId: string,
    cursor: string | undefined,
    size: number,
  ): Promise<{ events: TriggerEventView[]; has_more: boolean; next_cursor: string }> {
    await this.row(spaceId, triggerId);
    let q = this.#db
      .selectFrom('workflow_trigger_event')
      .selectAll()
      .where('trigger_id', '=', triggerId)
      .where('space_id', '=', spaceId);
    if (cursor) {
      const [at, id] = cursor.split('|');
      q = q.where((eb) => eb.or([eb('fired_at', '<', at), eb.and([eb('fired_at', '=', at), eb('id', '<', id ?? '')])]));
    }
    const rows = await q
      .orderBy('fired_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size + 1)
      .execute();
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      events: page.map((e) => this.eventView(e)),
      has_more: rows.length > size,
      next_cursor: rows.length > size && last ? `${last.fired_at}|${last.id}` : '',
    };
  }

  // ------------------------------------------------------------------ changing

  async save(body: SaveBody, userId: string): Promise<{ trigger: TriggerView; secret?: string; webhook_url?: string }> {
    const existing = body.trigger_id ? await this.row(body.space_id, body.trigger_id) : undefined;
    if (existing && existing.workflow_id !== body.workflow_id)
      throw refuse(400, 'A trigger stays with its workflow: make a new one for another workflow.', 'moved');
    const workflow = await this.#runner.info(body.workflow_id, body.space_id);
    const config = await this.#checkConfig(body, workflow);
    const status = body.status ?? (existing ? Number(existing.status) : TriggerStatus.CLOSE);
    if (status === TriggerStatus.OPEN) this.#checkPublished(workflow);
    const isWebhook = body.trigger_type === TriggerType.EVENT && body.event_id === WEBHOOK;
    let secret: string | undefined;
    let sealed = existing?.secret ?? null;
    if (isWebhook && (!sealed || body.regenerate_secret)) {
      secret = randomBytes(24).toString('base64url');
      sealed = this.#ctx.service(SecretsService).encrypt(secret);
    }
    if (!isWebhook) sealed = null;
    const now = iso();
    const row: TriggerRow = {
      id: existing?.id ?? this.#ctx.host.newId(),
      space_id: body.space_id,
      workflow_id: body.workflow_id,
      project_id: body.project_id ?? existing?.project_id ?? '',
      name: body.name,
      trigger_type: body.trigger_type,
      status,
      set_type: body.set_type ?? existing?.set_type ?? TriggerSetType.ONLINE,
      event_id: body.trigger_type === TriggerType.CRONJOB ? '' : body.event_id,
      connector_id: existing?.connector_id ?? '',
      config: JSON.stringify(config),
      payload: JSON.stringify(body.payload),
      secret: sealed,
      creator_id: existing?.creator_id ?? userId,
      last_fired_at: existing?.last_fired_at ?? null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
      deleted_at: null,
    };
    // The schedule is checked (and saved) before the row: a cron the scheduler refuses leaves nothing changed.
    await this.#syncSchedule(row);
    if (existing) {
      const { id, created_at: _c, ...changes } = row;
      await this.#db.updateTable('workflow_trigger').set(changes).where('id', '=', id).execute();
    } else await this.#db.insertInto('workflow_trigger').values(row).execute();
    this.#reindex(row);
    const trigger = await this.withNextTime(row);
    if (!secret) return { trigger };
    const auth = config.auth ?? 'path';
    return {
      trigger,
      secret,
      webhook_url: auth === 'path' ? `${trigger.webhook!.url}/${secret}` : trigger.webhook!.url,
    };
  }

  async operate(spaceId: string, id: string, status: number): Promise<TriggerView> {
    const row = await this.row(spaceId, id);
    if (status === TriggerStatus.OPEN) this.#checkPublished(await this.#runner.info(row.workflow_id, spaceId));
    const changed = { ...row, status, updated_at: iso() };
    await this.#syncSchedule(changed);
    await this.#db
      .updateTable('workflow_trigger')
      .set({ status, updated_at: changed.updated_at })
      .where('id', '=', id)
      .execute();
    this.#reindex(changed);
    return this.withNextTime(changed);
  }

  async remove(spaceId: string, id: string): Promise<void> {
    const row = await this.row(spaceId, id);
    const gone = { ...row, deleted_at: iso() };
    await this.#syncSchedule(gone);
    await this.#db.updateTable('workflow_trigger').set({ deleted_at: gone.deleted_at }).where('id', '=', id).execute();
    this.#reindex(gone);
  }

  #checkPublished(workflow: WorkflowSummary): void {
    if (!workflow.latest_version)
      throw refuse(
        400,
        `Publish "${workflow.name}" first: an open trigger runs the workflow's published version (a test runs the draft).`,
        'unpublished',
        { name: workflow.name },
      );
  }

  async #checkConfig(body: SaveBody, workflow: WorkflowSummary): Promise<Config> {
    const config: Config = { ...body.config };
    const fields = new Set(workflow.inputs.map((f) => f.name));
    for (const name of [...Object.keys(body.payload.parameters), ...Object.keys(body.payload.mapping)])
      if (!fields.has(name))
        throw refuse(
          400,
          `The workflow's Start has no input "${name}": map values to its inputs (${[...fields].join(', ') || 'none'}).`,
          'noInput',
          { name, inputs: [...fields].join(', ') },
        );
    if (body.trigger_type === TriggerType.CRONJOB) {
      if (!config.cron_expr)
        throw refuse(400, 'Give a cron trigger its schedule (a cron expression such as "0 9 * * 1-5").', 'noCron');
      // The scheduler's own check names what is wrong (in the caller's language).
      await this.#ctx
        .service(SchedulesService)
        .preview({ cron: config.cron_expr, timeZone: config.time_zone || undefined }, 1);
      return { cron_expr: config.cron_expr, time_zone: config.time_zone || 'UTC', missed: config.missed ?? 'skip' };
    }
    if (body.event_id === WEBHOOK) return { auth: config.auth ?? 'path' };
    const source = this.#ctx.registry(StudioEventSources).get(body.event_id);
    if (!source)
      throw refuse(400, `There is no studio event "${body.event_id}" a trigger can start on.`, 'noEvent', {
        event: body.event_id,
      });
    const allowed = new Set((source.filters ?? []).map((f) => f.key));
    for (const k of Object.keys(config.filters ?? {}))
      if (!allowed.has(k))
        throw refuse(400, `The event "${body.event_id}" cannot be filtered by "${k}".`, 'noFilter', {
          event: body.event_id,
          filter: k,
        });
    return { filters: config.filters ?? {} };
  }

  /** The host's schedule follows the trigger: present while it is an open, live cron trigger. */
  async #syncSchedule(row: TriggerRow): Promise<void> {
    const schedules = this.#ctx.service(SchedulesService);
    const config = configOf(row);
    if (row.trigger_type === TriggerType.CRONJOB && row.status === TriggerStatus.OPEN && !row.deleted_at) {
      await schedules.save({
        key: scheduleKey(row.id),
        job: CRON_JOB,
        payload: { trigger_id: row.id },
        cron: config.cron_expr,
        timeZone: config.time_zone,
        missed: config.missed,
      });
    } else await schedules.remove(scheduleKey(row.id));
  }

  // ------------------------------------------------------------------ firing

  /**
   * The Start inputs of a firing: the trigger's fixed values, then what its mapping reads from what the firing
   * brings, or without a mapping the fields of `defaults` named as Start's inputs (a webhook's body, an event's data).
   */
  async inputOf(row: TriggerRow, data: Record<string, unknown>, defaults: unknown): Promise<Record<string, unknown>> {
    const payload = payloadOf(row);
    const input: Record<string, unknown> = { ...payload.parameters };
    const mapped = Object.entries(payload.mapping);
    if (mapped.length) {
      for (const [field, path] of mapped) {
        const v = pick(data, path);
        if (v !== undefined) input[field] = v;
      }
    } else if (isRecord(defaults)) {
      const names = (await this.#runner.info(row.workflow_id, row.space_id)).inputs.map((f) => f.name);
      for (const name of names) if (name in defaults) input[name] = defaults[name];
    }
    return input;
  }

  /**
   * Records a firing and runs it: here and now (`wait`: a cron job, a test), or through the queue (a webhook call
   * answers at once). Answers the firing as it stands.
   */
  async fire(
    row: TriggerRow,
    source: TriggerEventView['source'],
    input: Record<string, unknown>,
    opts: { wait?: boolean; draft?: boolean; scheduledFor?: string; missed?: number } = {},
  ): Promise<TriggerEventView> {
    const event: EventRow = {
      id: this.#ctx.host.newId(),
      trigger_id: row.id,
      space_id: row.space_id,
      source,
      draft: opts.draft ? 1 : 0,
      run_result: TriggerRunResult.WAITING,
      execute_id: '',
      input: JSON.stringify(input),
      output: null,
      error: '',
      scheduled_for: opts.scheduledFor ?? null,
      missed: opts.missed ?? 0,
      fired_at: iso(),
      ended_at: null,
    };
    await this.#db.insertInto('workflow_trigger_event').values(event).execute();
    if (!opts.draft)
      await this.#db
        .updateTable('workflow_trigger')
        .set({ last_fired_at: event.fired_at })
        .where('id', '=', row.id)
        .execute();
    if (opts.wait) return this.eventView(await this.run(event, row));
    await this.#ctx.service(JobQueueService).enqueue(RUN_JOB, { event_id: event.id });
    return this.eventView(event);
  }

  /** Runs a recorded firing and keeps how it ended (the queue's job, or `fire` itself). */
  async run(event: EventRow, trigger?: TriggerRow): Promise<EventRow> {
    const row =
      trigger ??
      (await this.#db.selectFrom('workflow_trigger').selectAll().where('id', '=', event.trigger_id).executeTakeFirst());
    let done: Partial<EventRow>;
    if (!row) done = { run_result: TriggerRunResult.FAILED, error: 'The trigger was deleted before its run started.' };
    else {
      const result = await fromTrigger.run(row.id, () =>
        this.#runner.run({
          spaceId: row.space_id,
          userId: row.creator_id,
          workflowId: row.workflow_id,
          version: event.draft ? 'draft' : undefined,
          input: parseStoredObject(event.input, "an event's input"),
        }),
      );
      done = {
        execute_id: result.execute_id,
        run_result: result.status === 'success' ? TriggerRunResult.SUCCESS : TriggerRunResult.FAILED,
        output: result.output ? jsonWithin(result.output, 65_536) : null,
        error: (result.error ?? (result.status === 'success' ? '' : `The run ended: ${result.status}.`)).slice(0, 2000),
      };
    }
    const ended = { ...done, ended_at: iso() };
    await this.#db.updateTable('workflow_trigger_event').set(ended).where('id', '=', event.id).execute();
    return { ...event, ...ended };
  }

  /** The queue's job for a firing that was recorded and not run (a webhook call, an event). */
  async runById(eventId: string): Promise<void> {
    const event = await this.#db
      .selectFrom('workflow_trigger_event')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirst();
    if (event && Number(event.run_result) === TriggerRunResult.WAITING) await this.run(event);
  }

  /** The scheduler's job: a cron trigger's time came. */
  async onSchedule(firing: ScheduledFiring<{ trigger_id: string }>): Promise<void> {
    const row = await this.#db
      .selectFrom('workflow_trigger')
      .selectAll()
      .where('id', '=', firing.payload.trigger_id)
      .executeTakeFirst();
    if (!row || row.deleted_at || Number(row.status) !== TriggerStatus.OPEN) {
      // Closed or deleted where the schedule was not told (another process's change half-done): stop it.
      await this.#ctx.service(SchedulesService).remove(firing.key);
      return;
    }
    const data = { scheduled_time: firing.scheduledFor, fire_time: firing.firedAt, missed: firing.missed };
    await this.fire(row, 'cron', await this.inputOf(row, data, undefined), {
      wait: true,
      scheduledFor: firing.scheduledFor,
      missed: firing.missed,
    });
  }

  async test(spaceId: string, id: string, data: Record<string, unknown>): Promise<TriggerEventView> {
    const row = await this.row(spaceId, id);
    const defaults = row.event_id === WEBHOOK ? data.body : data;
    return this.fire(row, 'test', await this.inputOf(row, data, defaults), { wait: true, draft: true });
  }

  async rerun(spaceId: string, eventId: string): Promise<TriggerEventView> {
    const event = await this.#db
      .selectFrom('workflow_trigger_event')
      .selectAll()
      .where('id', '=', eventId)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!event) throw refuse(404, `There is no firing ${eventId} in this space.`, 'noFiring', { id: eventId });
    const row = await this.row(spaceId, event.trigger_id);
    if (!event.draft) this.#checkPublished(await this.#runner.info(row.workflow_id, spaceId));
    return this.fire(row, 'rerun', parseStoredObject(event.input, "an event's input"), {
      wait: true,
      draft: !!event.draft,
    });
  }

  // ------------------------------------------------------------------ webhooks

  /** The secret of a webhook trigger, decrypted. */
  #secret(row: TriggerRow): string {
    return this.#ctx.service(SecretsService).decrypt(row.secret!);
  }

  /** A live webhook trigger by id (any space: the secret is the credential), or a refusal that tells nothing more. */
  async webhookTrigger(id: string): Promise<{ row: TriggerRow; secret: string; config: Config }> {
    const row = /^\d{1,32}$/.test(id)
      ? await this.#db
          .selectFrom('workflow_trigger')
          .selectAll()
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!row || row.event_id !== WEBHOOK || !row.secret)
      throw refuse(404, `There is no webhook trigger ${id}.`, 'noWebhook', { id });
    return { row, secret: this.#secret(row), config: configOf(row) };
  }

  // ------------------------------------------------------------------ studio events

  /** Loads the open event triggers (at start, and now and then for those other processes opened). */
  async loadIndex(): Promise<void> {
    const rows = await this.#db
      .selectFrom('workflow_trigger')
      .selectAll()
      .where('trigger_type', '=', TriggerType.EVENT)
      .where('status', '=', TriggerStatus.OPEN)
      .where('deleted_at', 'is', null)
      .execute();
    this.#index.clear();
    for (const r of rows) this.#reindex(r);
  }

  #reindex(row: TriggerRow): void {
    for (const bySpace of this.#index.values())
      for (const [space, list] of bySpace)
        bySpace.set(
          space,
          list.filter((r) => r.id !== row.id),
        );
    const live = row.trigger_type === TriggerType.EVENT && Number(row.status) === TriggerStatus.OPEN && !row.deleted_at;
    if (!live || row.event_id === WEBHOOK) return;
    const bySpace = this.#index.get(row.event_id) ?? new Map<string, TriggerRow[]>();
    bySpace.set(row.space_id, [...(bySpace.get(row.space_id) ?? []), row]);
    this.#index.set(row.event_id, bySpace);
  }

  /** A studio event happened: the open triggers of its space whose filters match fire (not for runs triggers started). */
  onEvent(source: StudioEventSource, payload: unknown): void {
    if (fromTrigger.getStore()) return;
    const bySpace = this.#index.get(source.key);
    if (!bySpace?.size) return;
    const space = source.spaceOf(payload);
    const triggers = space ? bySpace.get(space) : undefined;
    if (!triggers?.length) return;
    const data = source.data(payload);
    for (const row of triggers) {
      const filters = configOf(row).filters ?? {};
      if (Object.entries(filters).some(([k, v]) => v !== '' && String(data[k] ?? '') !== v)) continue;
      void this.inputOf(row, data, data)
        .then((input) => this.fire(row, 'event', input))
        .catch((error: unknown) => this.#ctx.report(error, { trigger_id: row.id, event: source.key }));
    }
  }
}
