// The gray rule's cost per render (the prompt releases extension): what an app's fetch or render by environment adds
// to find the version it is served. The environment's state is in memory after the first read (as in a running
// studio); each call looks it up and places the caller by a hash of the release and the caller. Target: 20 µs at p50.
import { pick, Servings } from '../extensions/prompt-releases/src/server/gray.ts';
import type { ReleaseStore, StateRow } from '../extensions/prompt-releases/src/server/store.ts';
import { quantile } from './stream.ts';

export async function grayRuleCost(): Promise<{ p50: number; p99: number; share: number }> {
  const row: StateRow = {
    prompt_id: 'p1',
    env: 'production',
    space_id: 's1',
    version: '1.0.0',
    previous_version: '0.9.0',
    task_id: 't1',
    gray_version: '1.1.0',
    gray_percentage: 30,
    gray_user_ids: JSON.stringify(Array.from({ length: 100 }, (_, i) => `vip-${i}`)),
    gray_task_id: 't2',
    updated_by: 'u',
    updated_at: 0,
  };
  const store = { state: async () => row } as unknown as ReleaseStore;
  const ctx = {
    service: () => ({ subscribe: () => () => undefined, publish: () => undefined }),
    onDispose: () => undefined,
  } as unknown as ConstructorParameters<typeof Servings>[0];
  const servings = new Servings(ctx, store);
  const callers = Array.from({ length: 1000 }, (_, i) => `end-user-${i}`);
  const batch = 10_000;
  const perCall: number[] = [];
  let gray = 0;
  for (let round = 0; round < 60; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++)
      if (pick(await servings.get('p1', 'production'), callers[i % callers.length]).gray) gray++;
    // The first rounds warm the code up.
    if (round >= 10) perCall.push(Number(process.hrtime.bigint() - t0) / batch / 1000);
  }
  return { p50: quantile(perCall, 0.5), p99: quantile(perCall, 0.99), share: gray / (60 * batch) };
}
