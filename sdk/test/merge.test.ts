import { describe, expect, it } from 'vitest';
import { applyChoices, diffJson, diffText, merge3, pathKey } from '../src/merge.ts';

// Three-way merge of JSON values, case by case: what each side changed from the base.
const base = {
  prompt: 'You help.',
  model: { id: 'm1', temperature: 0.7 },
  skills: { plugins: { apis: [{ api_id: 'a', plugin_id: 'p' }] } },
  shortcuts: [] as unknown[],
};

describe('three-way merge', () => {
  const cases: {
    name: string;
    ours: (b: typeof base) => unknown;
    theirs: (b: typeof base) => unknown;
    merged?: unknown;
    conflicts: string[];
  }[] = [
    {
      name: 'both change different fields',
      ours: (b) => ({ ...b, prompt: 'You help kindly.' }),
      theirs: (b) => ({ ...b, model: { ...b.model, temperature: 0.2 } }),
      merged: { ...base, prompt: 'You help kindly.', model: { id: 'm1', temperature: 0.2 } },
      conflicts: [],
    },
    {
      name: 'both make the same change',
      ours: (b) => ({ ...b, prompt: 'Same.' }),
      theirs: (b) => ({ ...b, prompt: 'Same.' }),
      merged: { ...base, prompt: 'Same.' },
      conflicts: [],
    },
    {
      name: 'both change the same field differently',
      ours: (b) => ({ ...b, prompt: 'Mine.' }),
      theirs: (b) => ({ ...b, prompt: 'Theirs.' }),
      merged: { ...base, prompt: 'Theirs.' },
      conflicts: ['prompt'],
    },
    {
      name: 'each adds an item to an identified list',
      ours: (b) => ({
        ...b,
        skills: { plugins: { apis: [...b.skills.plugins.apis, { api_id: 'b', plugin_id: 'p' }] } },
      }),
      theirs: (b) => ({
        ...b,
        skills: { plugins: { apis: [...b.skills.plugins.apis, { api_id: 'c', plugin_id: 'q' }] } },
      }),
      merged: {
        ...base,
        skills: {
          plugins: {
            apis: [
              { api_id: 'a', plugin_id: 'p' },
              { api_id: 'c', plugin_id: 'q' },
              { api_id: 'b', plugin_id: 'p' },
            ],
          },
        },
      },
      conflicts: [],
    },
    {
      name: 'one deletes an item the other edits',
      ours: (b) => ({ ...b, skills: { plugins: { apis: [] } } }),
      theirs: (b) => ({ ...b, skills: { plugins: { apis: [{ api_id: 'a', plugin_id: 'p2' }] } } }),
      conflicts: ['skills/plugins/apis/a'],
    },
    {
      name: 'one deletes an item the other leaves alone',
      ours: (b) => ({ ...b, skills: { plugins: { apis: [] } } }),
      theirs: (b) => ({ ...b, prompt: 'Theirs.' }),
      merged: { ...base, prompt: 'Theirs.', skills: { plugins: { apis: [] } } },
      conflicts: [],
    },
    {
      name: 'a field one side removes and the other changes',
      ours: (b) => ({ ...b, model: { id: 'm1' } }),
      theirs: (b) => ({ ...b, model: { id: 'm1', temperature: 1 } }),
      merged: { ...base, model: { id: 'm1', temperature: 1 } },
      conflicts: ['model/temperature'],
    },
  ];
  it.each(cases)('$name', (c) => {
    const r = merge3<unknown>(base, c.ours(structuredClone(base)), c.theirs(structuredClone(base)));
    if (c.merged !== undefined) expect(r.merged).toEqual(c.merged);
    expect(r.conflicts.map((x) => pathKey(x.path))).toEqual(c.conflicts);
  });

  it('applies the choices: ours where chosen, theirs elsewhere, an item deleted or put back', () => {
    const ours = { ...base, prompt: 'Mine.', skills: { plugins: { apis: [] } } };
    const theirs = { ...base, prompt: 'Theirs.', skills: { plugins: { apis: [{ api_id: 'a', plugin_id: 'p2' }] } } };
    const r = merge3<unknown>(base, ours, theirs);
    expect(r.conflicts.map((x) => pathKey(x.path))).toEqual(['prompt', 'skills/plugins/apis/a']);
    expect(applyChoices(r, { prompt: 'ours' })).toMatchObject({
      prompt: 'Mine.',
      skills: { plugins: { apis: [{ api_id: 'a', plugin_id: 'p2' }] } },
    });
    expect(applyChoices(r, { prompt: 'ours', 'skills/plugins/apis/a': 'ours' })).toMatchObject({
      prompt: 'Mine.',
      skills: { plugins: { apis: [] } },
    });
    // Theirs deleted what ours edited: choosing ours puts it back.
    const back = merge3<unknown>(
      {
        items: [
          { id: 'x', v: 1 },
          { id: 'y', v: 1 },
        ],
      },
      {
        items: [
          { id: 'x', v: 2 },
          { id: 'y', v: 1 },
        ],
      },
      { items: [{ id: 'y', v: 1 }] },
    );
    expect(back.conflicts.map((x) => pathKey(x.path))).toEqual(['items/x']);
    expect(applyChoices(back, {})).toEqual({ items: [{ id: 'y', v: 1 }] });
    expect(applyChoices(back, { 'items/x': 'ours' })).toEqual({
      items: [
        { id: 'y', v: 1 },
        { id: 'x', v: 2 },
      ],
    });
  });

  it('diffs field by field, identified items by their id, and as text', () => {
    const after = { ...base, prompt: 'New.', skills: { plugins: { apis: [{ api_id: 'b', plugin_id: 'p' }] } } };
    const d = diffJson(base, after);
    expect(d.map((e) => [e.kind, pathKey(e.path)])).toEqual([
      ['changed', 'prompt'],
      ['removed', 'skills/plugins/apis/a'],
      ['added', 'skills/plugins/apis/b'],
    ]);
    expect(diffText(d).split('\n')[0]).toBe('~ prompt: "You help." → "New."');
  });
});
