import { describe, expect, it } from 'vitest';
import { nodeTypeClientsOf } from '@tessera/ext-workflow/testing';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import client from '../src/client/index.tsx';

const node = (type: string, param: Partial<CanvasNode['node_param']>): CanvasNode => ({ node_id: 'n', type, node_param: { inputs: [], outputs: [], settings: {}, ...param }, layout: { x: 0, y: 0 } });

// What each card says under its title: the node's key settings, on one line.
describe('card summaries per node type', () => {
  const clients = nodeTypeClientsOf(client);
  const summary = (key: string, param: Partial<CanvasNode['node_param']>) => clients[key].summary?.(node(key, param));

  it('core types: the inputs a run takes, what End returns or answers, templates, questions', () => {
    expect(summary('start', { outputs: [{ name: 'city', type: 'string' }, { name: 'days', type: 'integer' }] })).toBe('city, days');
    expect(summary('end', { inputs: [{ name: 'report', type: 'string', value: { kind: 'literal', value: '' } }] })).toBe('report');
    expect(summary('end', { settings: { terminate_plan: 'use_answer_content', answer: 'Here is {{report}}' } })).toBe('Here is {{report}}');
    expect(summary('text', { settings: { template: 'Hello   {{name}}\nand welcome' } })).toBe('Hello {{name}} and welcome');
    expect(summary('question', { settings: { question: 'Which city?' } })).toBe('Which city?');
    expect(summary('text', { settings: { template: 'x'.repeat(100) } })).toHaveLength(60);
    expect(summary('text', { settings: {} })).toBeUndefined();
  });
});
