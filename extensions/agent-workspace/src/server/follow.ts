// Following a task live: its log so far, then each line, the agent's words as it writes them and each change, as they
// are told (BroadcastService: from whichever studio process works on the task), until it ends or the page leaves.
import { BroadcastService, type ServerContext, type SseStream } from '@tessera/sdk/server';
import { ENDED } from '../shared/api.ts';
import { taskChannel, type Told } from './engine.ts';
import type { MessageRow, TaskRow, WorkspaceStore } from './store.ts';

const settled = (s: string) => ENDED.includes(s);

export async function follow(
  ctx: ServerContext,
  store: WorkspaceStore,
  t: TaskRow,
  lang: unknown,
  sse: SseStream,
  signal: AbortSignal,
): Promise<void> {
  if (settled(t.status)) {
    for (const m of await store.messages(t.id)) sse.send('message', { message: store.messageView(m, lang) });
    sse.send('task', { task: store.view(t, lang) });
    return sse.close();
  }
  // Listening before the saved lines are read, so that nothing said meanwhile is missed (nor sent twice).
  let last = 0;
  let early: Told[] | undefined = [];
  let finish = () => undefined as void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const on = (e: Told) => {
    if (early) return void early.push(e);
    if (e.message && Number(e.message.seq) > last) {
      last = Number(e.message.seq);
      sse.send('message', { message: store.messageView(e.message, lang) });
    }
    if (e.delta) sse.send('delta', e.delta);
    if (e.timing) sse.send('timing', e.timing);
    if (e.task) {
      sse.send('task', { task: store.view(e.task, lang) });
      if (settled(e.task.status)) finish();
    }
  };
  const unsubscribe = ctx.service(BroadcastService).subscribe(taskChannel(t.id), (m) => on(m as Told));
  signal.addEventListener('abort', () => finish());
  try {
    await unsubscribe.ready;
    for (const m of await store.messages(t.id)) {
      last = Number(m.seq);
      sse.send('message', { message: store.messageView(m, lang) });
    }
    let now = await store.task(t.id);
    const pending: MessageRow[] = [];
    while (early.length) {
      const batch: Told[] = early;
      early = [];
      for (const e of batch) if (e.message) pending.push(e.message);
      if (batch.some((e) => e.task)) now = await store.task(t.id);
    }
    early = undefined;
    sse.send('task', { task: store.view(now, lang) });
    for (const message of pending.sort((a, b) => a.seq - b.seq)) on({ message });
    if (settled(now.status)) finish();
    await ended;
  } finally {
    unsubscribe();
  }
  sse.close();
}
