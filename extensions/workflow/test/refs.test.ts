import { describe, expect, it } from 'vitest';
import { refNames, refsToIds, refsToTitles } from '../src/client/refs.ts';

const nodes = [
  { node_id: 'start', node_title: 'Start' },
  { node_id: 'llm_2', node_title: 'Summarise' },
  { node_id: 'code', node_title: 'v1.2' },
  { node_id: 'a', node_title: 'Twin' },
  { node_id: 'b', node_title: 'Twin' },
  { node_id: 'c', node_title: 'query' },
];

describe('template references by node title', () => {
  const names = refNames(nodes, ['query']);
  it('shows references by title and stores them by id, round trip', () => {
    const stored = 'Hi {{start.name}}, {{ llm_2.output.text }} / {{code.result}} {{name}}';
    const shown = refsToTitles(stored, names);
    expect(shown).toBe('Hi {{Start.name}}, {{ Summarise.output.text }} / {{v1.2.result}} {{name}}');
    expect(refsToIds(shown, names)).toBe(stored);
  });
  it('keeps ids where a title cannot stand for one node: shared titles, a local input of that name', () => {
    expect(refsToTitles('{{a.x}} {{b.x}} {{c.x}}', names)).toBe('{{a.x}} {{b.x}} {{c.x}}');
    expect(refsToIds('{{Twin.x}} {{query.x}}', names)).toBe('{{Twin.x}} {{query.x}}');
  });
  it('leaves unknown and partial references alone', () => {
    expect(refsToIds('{{Start.', names)).toBe('{{Start.');
    expect(refsToTitles('{{gone.x}} {{start}}', names)).toBe('{{gone.x}} {{start}}');
  });
});

describe('card lines cut to their width', async () => {
  const { fitText } = await import('../src/client/editor/Cards.tsx');
  it('keeps what fits and cuts the rest with an ellipsis; ideographs count two', () => {
    expect(fitText('Short', 10)).toBe('Short');
    expect(fitText('A longer title here', 10)).toBe('A longer …');
    expect(fitText('总结用户的问题并回答', 10)).toBe('总结用户…');
  });
});
