import type { Agent } from './agent.ts';

/** Waits until the documents are no longer being processed (status other than 0, 4, 5); answers their progress. */
export async function settled(agent: Agent, space: string, ids: string[], timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await agent.post('/api/knowledge/document/progress/get', { space_id: space, document_ids: ids });
    if (data.every((d: { status: number }) => ![0, 4, 5].includes(d.status))) return data;
    if (Date.now() > until) throw new Error(`documents still processing: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
