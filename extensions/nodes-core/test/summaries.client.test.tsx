import { describe, expect, it } from 'vitest';
import { nodeTypeClientsOf } from '@tessera/ext-workflow/testing';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import client from '../src/client/index.tsx';

const node = (type: string, param: Partial<CanvasNode['node_param']>): CanvasNode => ({
  node_id: 'n',
  type,
  node_param: { inputs: [], outputs: [], settings: {}, ...param },
  layout: { x: 0, y: 0 },
});

// What each card says under its title: the node's key settings, on one line.
describe('card summaries per node type', () => {
  const clients = nodeTypeClientsOf(client);
  const summary = (key: string, param: Partial<CanvasNode['node_param']>) => clients[key].summary?.(node(key, param));

  it('core types: the inputs a run takes, what End returns or answers, templates, questions', () => {
    expect(
      summary('start', {
        outputs: [
          { name: 'city', type: 'string' },
          { name: 'days', type: 'integer' },
        ],
      }),
    ).toBe('city, days');
    expect(
      summary('end', { inputs: [{ name: 'report', type: 'string', value: { kind: 'literal', value: '' } }] }),
    ).toBe('report');
    expect(summary('end', { settings: { terminate_plan: 'use_answer_content', answer: 'Here is {{report}}' } })).toBe(
      'Here is {{report}}',
    );
    expect(summary('text', { settings: { template: 'Hello   {{name}}\nand welcome' } })).toBe(
      'Hello {{name}} and welcome',
    );
    expect(summary('question', { settings: { question: 'Which city?' } })).toBe('Which city?');
    expect(summary('text', { settings: { template: 'x'.repeat(100) } })).toHaveLength(60);
    expect(summary('text', { settings: {} })).toBeUndefined();
  });

  it('If: each branch port says what it tests, operators in the language', () => {
    const ports = clients.if.ports!(
      node('if', {
        settings: {
          branches: [
            {
              logic: 1,
              conditions: [
                { left: 'score', operator: 13, right: { literal: '3' } },
                { left: 'name', operator: 7, right: { literal: 'refund' } },
              ],
            },
            {
              logic: 2,
              conditions: [
                { left: 'name', operator: 9 },
                { left: 'age', operator: 16, right: { input: 'limit' } },
              ],
            },
          ],
        },
      }),
    );
    expect(ports.map((p) => p.id)).toEqual(['true', 'true_1', 'false']);
    expect(ports[0].detail).toEqual([
      'score',
      { key: 'nodes-core:if.op.13' },
      '3',
      { key: 'nodes-core:if.andWord' },
      'name',
      { key: 'nodes-core:if.op.7' },
      '"refund"',
    ]);
    expect(ports[1].detail).toEqual([
      'name',
      { key: 'nodes-core:if.op.9' },
      { key: 'nodes-core:if.orWord' },
      'age',
      { key: 'nodes-core:if.op.16' },
      'limit',
    ]);
    expect(ports[2].detail).toBeUndefined();
  });
});
