// Following a process live: what was said so far, then each message and change as they are told (BroadcastService:
// from whichever studio process runs the turn), in the reader's language, until the process ends or the page leaves.
import { BroadcastService, type ServerContext, type SseStream } from '@tessera/sdk/server';
import { processChannel } from './engine.ts';
import type { MessageRow, ProcessRow, SocietyStore } from './store.ts';

type Told = { message?: MessageRow; process?: ProcessRow };
const done = (s: string) => ['stopped', 'finished', 'failed'].includes(s);

export async function follow(
  ctx: ServerContext,
  store: SocietyStore,
  p: ProcessRow,
  lang: Parameters<SocietyStore['messageView']>[1],
  sse: SseStream,
  signal: AbortSignal,
): Promise<void> {
  if (done(p.status)) {
    for (const m of await store.messages(p.id)) sse.send('message', { message: store.messageView(m, lang) });
    sse.send('process', { process: store.processView(p, lang) });
    return sse.close();
  }
  // Listening before the saved messages are read, so that nothing said meanwhile is missed (nor sent twice).
  const sent = new Set<string>();
  let early: Told[] | undefined = [];
  let finish = () => undefined as void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const on = (e: Told) => {
    if (early) return void early.push(e);
    if (e.message && !sent.has(e.message.id)) {
      sent.add(e.message.id);
      sse.send('message', { message: store.messageView(e.message, lang) });
    }
    if (e.process) {
      sse.send('process', { process: store.processView(e.process, lang) });
      if (done(e.process.status)) finish();
    }
  };
  const unsubscribe = ctx.service(BroadcastService).subscribe(processChannel(p.id), (m) => on(m as Told));
  signal.addEventListener('abort', () => finish());
  try {
    await unsubscribe.ready;
    for (const m of await store.messages(p.id)) {
      sent.add(m.id);
      sse.send('message', { message: store.messageView(m, lang) });
    }
    // A change told while the snapshot was read may be newer than it: read the process again until none is.
    let now = await store.process(p.id);
    const pending: MessageRow[] = [];
    while (early.length) {
      const batch: Told[] = early;
      early = [];
      for (const e of batch) if (e.message) pending.push(e.message);
      if (batch.some((e) => e.process)) now = await store.process(p.id);
    }
    early = undefined;
    sse.send('process', { process: store.processView(now, lang) });
    for (const message of pending) on({ message });
    if (done(now.status)) finish();
    await ended;
  } finally {
    unsubscribe();
  }
  sse.close();
}
