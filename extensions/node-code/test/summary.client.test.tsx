import { describe, expect, it } from 'vitest';
import { nodeTypeClientsOf } from '@tessera/ext-workflow/testing';
import client from '../src/client/index.tsx';

describe('the code card', () => {
  it('says the language and the first line of the code under its title', () => {
    const c = nodeTypeClientsOf(client).code;
    expect(
      c.summary?.({
        node_id: 'n',
        type: 'code',
        node_param: {
          inputs: [],
          outputs: [],
          settings: { language: 'python', code: '# doubles\ndef main(args):\n    return {}' },
        },
        layout: { x: 0, y: 0 },
      }),
    ).toBe('Python · def main(args):');
  });
});
