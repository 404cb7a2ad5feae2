import { describe, expect, it } from 'vitest';
import type { RequestClient } from '@tessera/sdk/client';
import { EditorStore } from '../src/client/editor/store.ts';

describe("the workflow editor's store", () => {
  it('selects nodes or a link, keeps what the canvas measured, and tells its readers once per change', () => {
    const store = new EditorStore();
    let told = 0;
    const stop = store.subscribe(() => told++);
    store.select(['a', 'b']);
    store.selectEdges(['a->b']);
    expect([...store.state.selected]).toEqual(['a', 'b']);
    // A click on a link drawn in the link layer selects that link alone.
    store.selectLink('b->c');
    expect([...store.state.selected]).toEqual([]);
    expect([...store.state.selectedEdges]).toEqual(['b->c']);
    store.measured({ a: { width: 200, height: 60 } });
    store.measured({ b: { width: 180, height: 40 } });
    store.measured({});
    expect(store.state.sizes).toEqual({ a: { width: 200, height: 60 }, b: { width: 180, height: 40 } });
    expect(told).toBe(5);
    // A part not changed is the same object: a view that reads it is not drawn again.
    const sizes = store.state.sizes;
    store.select(['c']);
    expect(store.state.sizes).toBe(sizes);
    stop();
    store.select([]);
    expect(told).toBe(6);
  });

  it('opens and closes side panels, and a refused run shows the problems with nothing selected', () => {
    const store = new EditorStore('run');
    expect(store.state.side).toBe('run');
    store.toggleSide('versions');
    expect(store.state.side).toBe('versions');
    store.toggleSide('versions');
    expect(store.state.side).toBe(null);
    store.select(['a']);
    store.refuseRun();
    expect(store.state.brokenRun).toBe(true);
    store.closeRefusedRun(true);
    expect(store.state).toMatchObject({ brokenRun: false, side: 'problems' });
    expect(store.state.selected.size).toBe(0);
  });

  it("keeps the server's validation by node, with what the nodes compute", async () => {
    const asked: unknown[] = [];
    const api = {
      call: async (_endpoint: unknown, input: unknown) => {
        asked.push(input);
        return {
          errors: [
            { node_id: 'llm', field: 'model', message: 'Pick a model.', level: 'error' },
            { node_id: 'llm', field: 'prompt', message: 'The prompt is empty.', level: 'warning' },
            { node_id: '', field: '', message: 'The canvas has no end.', level: 'error' },
          ],
          node_outputs: { code: [{ name: 'sum', type: 'number' }] },
        };
      },
    } as unknown as RequestClient;
    const store = new EditorStore();
    await store.validate(api, 's1', 'w1');
    expect(asked).toEqual([{ space_id: 's1', workflow_id: 'w1' }]);
    expect(store.state.problems).toEqual({
      llm: [
        { field: 'model', message: 'Pick a model.', level: 'error' },
        { field: 'prompt', message: 'The prompt is empty.', level: 'warning' },
      ],
    });
    expect(store.state.computed).toEqual({ outputs: { code: [{ name: 'sum', type: 'number' }] }, locals: {} });
  });
});
