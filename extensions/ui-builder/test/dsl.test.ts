import { describe, expect, it } from 'vitest';
import { BUILTIN_COMPONENTS, Dsl, dslProblems } from '../src/shared/dsl.ts';
import { fillText } from '../src/render/Renderer.tsx';
import { depthOf } from '../src/server/store.ts';
import { valueAt } from '@tessera/sdk';

const known = new Set<string>(BUILTIN_COMPONENTS);
const app = (children: unknown[], extra: Record<string, unknown> = {}) =>
  Dsl.parse({ pages: [{ page_id: 'home', name: 'Home', root: { id: 'root', type: 'column', children } }], ...extra });

// What an app's DSL may hold, and how its texts and outputs are read.
describe('the DSL', () => {
  it('takes a form bound to a workflow', () => {
    const dsl = app([{ id: 'f', type: 'form', children: [{ id: 'city', type: 'input' }] }], {
      variables: [{ name: 'answer' }],
      events: [
        {
          event_id: 'go',
          component_id: 'f',
          on: 'submit',
          action: {
            type: 'workflow',
            workflow_id: 'w1',
            inputs: { city: { from: 'component', component_id: 'city' } },
            outputs: { answer: 'answer' },
          },
        },
      ],
    });
    expect(dslProblems(dsl, known)).toEqual([]);
  });

  it('refuses script addresses, unknown components, ids used twice, children of a leaf, dangling events', () => {
    const problems = dslProblems(
      app(
        [
          { id: 'pic', type: 'image', props: { src: 'javascript:alert(1)' } },
          { id: 'pic', type: 'marquee' },
          { id: 'words', type: 'text', children: [{ id: 'inner', type: 'text' }] },
        ],
        {
          events: [
            { event_id: 'e', component_id: 'gone', on: 'click', action: { type: 'workflow', workflow_id: 'w' } },
          ],
        },
      ),
      known,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'pic: src must be an http(s) address.',
        'The id pic is used twice.',
        'pic: there is no component "marquee" in this studio.',
        'words: a text holds no components.',
        'The event e is on gone, which is not there.',
      ]),
    );
  });

  it('measures nesting without recursion, and reads output paths', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { c: [deep] };
    expect(depthOf(deep)).toBe(200_001);
    expect(valueAt({ items: [{ name: 'Rex' }] }, 'items.0.name')).toBe('Rex');
    expect(valueAt({ a: 1 }, 'a.b.c')).toBeUndefined();
  });

  it('fills {{variables}} into texts as plain text', () => {
    expect(fillText('Hi {{name}}, {{ user.city }}!', { name: '<b>Ann</b>', user: { city: 'Rome' } })).toBe(
      'Hi <b>Ann</b>, Rome!',
    );
    expect(fillText('{{missing}}', {})).toBe('');
  });
});

describe('custom components', () => {
  it('compares two versions of a page line by line, unchanged runs cut short', async () => {
    const { lineDiff } = await import('../src/server/components.ts');
    const a = ['<div>', 'one', 'two', 'three', 'four', 'five', '<b>old</b>', '</div>'];
    const b = ['<div>', 'one', 'two', 'three', 'four', 'five', '<b>new</b>', '<i>more</i>', '</div>'];
    expect(lineDiff(a, b)).toEqual([
      { op: ' ', text: '<div>' },
      { op: ' ', text: 'one' },
      { op: ' ', text: '…' },
      { op: ' ', text: 'four' },
      { op: ' ', text: 'five' },
      { op: '-', text: '<b>old</b>' },
      { op: '+', text: '<b>new</b>' },
      { op: '+', text: '<i>more</i>' },
      { op: ' ', text: '</div>' },
    ]);
  });

  it('refuses a component bound to a variable the app does not declare, and children under a leaf', () => {
    const dsl = app([
      { id: 'city', type: 'input', props: { bind: 'nowhere' } },
      { id: 'chart1', type: 'chart', children: [{ id: 't', type: 'text' }] },
    ]);
    expect(dslProblems(dsl, known)).toEqual([
      'city is bound to the variable nowhere, which is not declared.',
      'chart1: a chart holds no components.',
    ]);
  });
});
