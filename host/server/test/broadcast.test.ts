import { describe, expect, it } from 'vitest';
import { LocalBroadcast } from '../src/broadcast.ts';

// Messages to every studio process, in one process: listeners of a channel get a copy, in order; one that throws is
// reported and the others still hear; unsubscribing stops it.
describe('the in-process broadcast', () => {
  it('tells the channel’s listeners a copy, in order, and reports a listener that throws', async () => {
    const reported: string[] = [];
    const b = new LocalBroadcast((m) => reported.push(m));
    const heard: unknown[] = [];
    const off = b.subscribe('a', (m) => heard.push(m));
    b.subscribe('a', () => {
      throw new Error('boom');
    });
    b.subscribe('b', () => heard.push('wrong channel'));
    await off.ready;
    const sent = { n: 1 };
    b.publish('a', sent);
    b.publish('a', { n: 2 });
    sent.n = 99;
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([{ n: 1 }, { n: 2 }]);
    expect(reported).toEqual([expect.stringMatching(/listener of 'a' failed: boom/), expect.anything()]);
    off();
    b.publish('a', { n: 3 });
    await new Promise((r) => setImmediate(r));
    expect(heard).toHaveLength(2);
  });
});
