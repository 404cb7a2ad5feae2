import { describe, expect, it } from 'vitest';
import { nodeTypeClientsOf } from '@tessera/ext-workflow/testing';
import client from '../src/client/index.tsx';

describe('the http card', () => {
  it('says the method and the URL under its title', () => {
    const c = nodeTypeClientsOf(client).http;
    expect(
      c.summary?.({
        node_id: 'n',
        type: 'http',
        node_param: { inputs: [], outputs: [], settings: { method: 'POST', url: 'https://api.example.com/v1/items' } },
        layout: { x: 0, y: 0 },
      }),
    ).toBe('POST https://api.example.com/v1/items');
  });
});
