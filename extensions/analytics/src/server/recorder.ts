// Counts the studio's events into daily rows, behind the request path: increments gather in memory and are written
// every second (or at 500 keys) by the bulk writer, adding to what is stored (one upsert per key), so a run or a chat
// costs no statement of its own.
import { BulkWriterService, outsideRequest, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { BUCKET_COLUMNS, bucketOf } from './buckets.ts';

const FLUSH_MS = 1000;
const MAX_KEYS = 500;

export interface Occurrence {
  spaceId: string;
  kind: 'workflow' | 'bot';
  resourceId: string;
  connectorId: string;
  /** The end user (a channel's user, else the studio user); '' when unknown. */
  userKey: string;
  failed: boolean;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  at?: number;
}

interface Pending {
  row: Record<string, string | number>;
}

export class Recorder {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext;
  #daily = new Map<string, Pending>();
  #users = new Map<string, Record<string, string>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  add(o: Occurrence): void {
    const day = new Date(o.at ?? Date.now()).toISOString().slice(0, 10);
    const id = { space_id: o.spaceId, day, kind: o.kind, resource_id: o.resourceId, connector_id: o.connectorId };
    const key = Object.values(id).join('|');
    let p = this.#daily.get(key);
    if (!p) {
      p = {
        row: {
          ...id,
          runs: 0,
          chats: 0,
          errors: 0,
          input_tokens: 0,
          output_tokens: 0,
          ...Object.fromEntries(BUCKET_COLUMNS.map((b) => [b, 0])),
        },
      };
      this.#daily.set(key, p);
    }
    const r = p.row as Record<string, number>;
    if (o.kind === 'bot') r.chats++;
    else r.runs++;
    if (o.failed) r.errors++;
    r.input_tokens += o.inputTokens;
    r.output_tokens += o.outputTokens;
    r[BUCKET_COLUMNS[bucketOf(o.durationMs)]]++;
    if (o.userKey) this.#users.set(`${key}|${o.userKey}`, { ...id, user_key: o.userKey.slice(0, 200) });
    if (this.#daily.size >= MAX_KEYS) void this.flush();
    else
      this.#timer ??= outsideRequest(() =>
        setTimeout(() => {
          this.#timer = undefined;
          void this.flush();
        }, FLUSH_MS),
      );
  }

  /** Writes what gathered (also at stop). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const daily = [...this.#daily.values()].map((p) => p.row);
    const users = [...this.#users.values()];
    this.#daily.clear();
    this.#users.clear();
    if (!daily.length) return this.#flushing;
    const keys = ['space_id', 'day', 'kind', 'resource_id', 'connector_id'];
    const add = (c: string) => `analytics_daily.${c} + excluded.${c}`;
    this.#flushing = this.#flushing
      .then(() =>
        this.#ctx.service(BulkWriterService).insert([
          {
            table: 'analytics_daily',
            rows: daily,
            onConflict: {
              columns: keys,
              set: Object.fromEntries(
                ['runs', 'chats', 'errors', 'input_tokens', 'output_tokens', ...BUCKET_COLUMNS].map((c) => [c, add(c)]),
              ),
            },
          },
          ...(users.length
            ? [{ table: 'analytics_user', rows: users, onConflict: { columns: [...keys, 'user_key'] } }]
            : []),
        ]),
      )
      .catch((e: unknown) => this.#ctx.report(e));
    return this.#flushing;
  }
}
