import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ToolOutputViews, type ToolOutputContext } from '@tessera/ext-bots/shared';
import { PluginsService, type Plugins } from '@tessera/ext-plugins/shared';
import cards from '../src/server/index.ts';

// Cards alone, with a stand-in plugin: a card bound to an API shows in a bot's answer as a card where the channel
// draws cards, and as its text elsewhere; an unpublished card shows nothing.
const tool = {
  plugin_id: 'p1',
  plugin_name: 'Weather',
  api_id: 'a1',
  name: 'forecast',
  desc: '',
  version_name: 'v1',
  request_params: [],
  response_params: [
    { name: 'city', type: 1 },
    { name: 'days', type: 5, sub_parameters: [{ name: 'day', type: 1 }] },
  ],
};
const plugins = {
  tools: async (space: string) => (space === 's1' ? [tool] : []),
  tool: async (space: string, plugin: string, api: string) =>
    space === 's1' && plugin === 'p1' && api === 'a1' ? tool : undefined,
  call: async () => ({ status: 'ok', output: {}, http_status: 200 }),
} as unknown as Plugins;

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(cards, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'bots' }, { id: 'spaces' }],
    services: [[PluginsService, plugins]],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
});
afterAll(() => t.close());

const turn = (connectorId: string, spaceId = 's1'): ToolOutputContext => ({
  spaceId,
  botId: 'b1',
  version: null,
  connectorId,
  tool: { name: 'forecast', source: { kind: 'plugin_api', id: 'a1', plugin_id: 'p1' } },
  output: { city: 'Oslo', days: [{ day: 'Mon' }, { day: 'Tue' }, { day: 'Wed' }] },
});

describe('cards alone', () => {
  it('shows a bound, published card as a card where cards show and as text elsewhere', async () => {
    const { card } = await t.call(
      'POST',
      '/api/card/create_card',
      {
        space_id: 's1',
        name: 'Forecast',
        dsl: {
          title: 'Weather in {{place}}',
          body: [{ type: 'list', items: '{{days}}', children: [{ type: 'text', text: '{{item.day}}' }] }],
        },
      },
      'ann',
    );
    const { targets } = await t.call('POST', '/api/card/bind_targets', { space_id: 's1' }, 'ann');
    expect(targets).toEqual([
      { biz_type: 1, biz_id: 'a1', plugin_id: 'p1', name: 'Weather / forecast', fields: ['city', 'days'] },
    ]);
    await t.call(
      'POST',
      '/api/card/bind_card',
      {
        card_id: card.card_id,
        biz_type: 1,
        biz_id: 'a1',
        plugin_id: 'p1',
        mapping_rule: { place: 'city' },
        max_display_rows: 2,
      },
      'ann',
    );
    const view = t.server.host.points.registry(ToolOutputViews).get('cards')!;
    expect(await view.view(turn('999'))).toBeUndefined();
    await t.call('POST', '/api/card_builder/publish', { card_id: card.card_id }, 'ann');

    const shown = await view.view(turn('999'));
    expect(shown!.content_type).toBe('card');
    expect(JSON.parse(shown!.content)).toMatchObject({
      title: 'Weather in Oslo',
      body: [{ type: 'list', items: [[{ type: 'text', text: 'Mon' }], [{ type: 'text', text: 'Tue' }]], more: 1 }],
    });
    // A channel that draws no cards (a custom connector) gets the card's text.
    expect(await view.view(turn('7000000000001'))).toEqual({
      content_type: 'text',
      content: 'Weather in Oslo\n- Mon\n- Tue\n  … +1',
      meta_data: { card_id: card.card_id },
    });
    // Another space's tool of the same id shows nothing of this space's card.
    expect(await view.view(turn('999', 's2'))).toBeUndefined();
  });

  it('finds cards by a part of their name, % and _ taken as they are', async () => {
    for (const name of ['Sale 50% off', 'Sale 500 items', 'snake_case card'])
      await t.call('POST', '/api/card/create_card', { space_id: 's1', name }, 'ann');
    const names = async (name: string) =>
      (await t.call('POST', '/api/card/query_card_list', { space_id: 's1', name }, 'ann')).cards.map(
        (c: { name: string }) => c.name,
      );
    expect(await names('50%')).toEqual(['Sale 50% off']);
    expect(await names('SALE 50')).toEqual(['Sale 500 items', 'Sale 50% off']);
    expect(await names('e_c')).toEqual(['snake_case card']);
  });

  it("refuses to bind another space's card, or to what the space does not have", async () => {
    const { card } = await t.call('POST', '/api/card/create_card', { space_id: 's1', name: 'Mine' }, 'ann');
    const theirs = await t.request({
      method: 'POST',
      url: '/api/card/bind_card',
      body: { card_id: card.card_id, biz_type: 1, biz_id: 'a1', plugin_id: 'p1' },
      as: 'bob',
    });
    expect(theirs.status).toBe(403);
    const missing = await t.request({
      method: 'POST',
      url: '/api/card/bind_card',
      body: { card_id: card.card_id, biz_type: 2, biz_id: 'w9' },
      as: 'ann',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toMatch(/no plugin API or workflow w9/);
  });
});
