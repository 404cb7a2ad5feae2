import { describe, expect, it } from 'vitest';
import { nodeTypeClientsOf } from '@tessera/ext-workflow/testing';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import client from '../src/client/index.tsx';

const node = (type: string, settings: Record<string, unknown>): CanvasNode => ({
  node_id: 'n',
  type,
  node_param: { inputs: [], outputs: [], settings },
  layout: { x: 0, y: 0 },
});

describe('the llm and intent cards', () => {
  const clients = nodeTypeClientsOf(client);
  it('say the model chosen and the start of the prompt under the title', () => {
    expect(clients.llm.summary?.(node('llm', { user_prompt: 'Summarise {{text}}' }))).toBe('Summarise {{text}}');
    expect(
      clients.llm.summary?.(
        node('llm', { model_id: '7', model_name: 'GPT-4o mini', user_prompt: 'Summarise {{text}}' }),
      ),
    ).toBe('GPT-4o mini · Summarise {{text}}');
    expect(clients.llm.summary?.(node('llm', { model_id: '7', model_name: 'GPT-4o mini', user_prompt: '' }))).toBe(
      'GPT-4o mini',
    );
    expect(clients.intent.summary?.(node('intent', { model_id: '7', model_name: 'Qwen 3' }))).toBe('Qwen 3');
  });
});
