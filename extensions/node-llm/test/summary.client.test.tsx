import { describe, expect, it } from 'vitest';
import { nodeTypeClientsOf } from '@tessera/ext-workflow/testing';
import client from '../src/client/index.tsx';

describe('the llm card', () => {
  it('says the start of the prompt under its title', () => {
    const c = nodeTypeClientsOf(client).llm;
    expect(c.summary?.({ node_id: 'n', type: 'llm', node_param: { inputs: [], outputs: [], settings: { user_prompt: 'Summarise {{text}}' } }, layout: { x: 0, y: 0 } })).toBe('Summarise {{text}}');
  });
});
