import { describe, expect, it } from 'vitest';
import { buildRequest, InputError, shownRequest } from '../src/server/call.ts';
import { importOpenApi } from '../src/server/openapi.ts';
import { paramsToFields, paramsToJsonSchema } from '../src/shared/index.ts';
import type { ApiDef } from '../src/server/store.ts';

const plugin = {
  url: 'https://api.example.com/v1/',
  auth_type: 1,
  auth: { location: 2, key: 'appid' },
  common_params: { '4': [{ name: 'X-Client', value: 'studio' }], '3': [{ name: 'source', value: 'studio' }] },
};
const api: ApiDef = {
  api_id: 'a1',
  name: 'search',
  desc: '',
  path: '/items/{id}/search',
  method: 2,
  request_params: [
    { name: 'id', type: 1, location: 1, is_required: true },
    { name: 'tags', type: 5, location: 2, sub_parameters: [{ name: '[Array Item]', type: 1 }] },
    { name: 'limit', type: 2, location: 2, global_default: '10' },
    { name: 'X-Trace', type: 1, location: 4 },
    {
      name: 'filter',
      type: 4,
      location: 3,
      is_required: true,
      sub_parameters: [
        { name: 'min', type: 3, is_required: true },
        { name: 'open', type: 6 },
      ],
    },
  ],
  response_params: [],
};

describe('an API call as a request', () => {
  it('puts each parameter where it belongs: path (encoded), query (arrays repeated, defaults), headers, a JSON body; auth and common parameters', () => {
    const r = buildRequest(
      plugin,
      api,
      { id: 'a b/c', tags: ['x', 'y'], 'X-Trace': 't1', filter: { min: '2.5', open: 'true' } },
      'secret-key',
    );
    expect(r.method).toBe('POST');
    expect(r.url.toString()).toBe(
      'https://api.example.com/v1/items/a%20b%2Fc/search?tags=x&tags=y&limit=10&appid=secret-key',
    );
    expect(r.headers.get('x-trace')).toBe('t1');
    expect(r.headers.get('x-client')).toBe('studio');
    expect(JSON.parse(r.body!)).toEqual({ filter: { min: 2.5, open: true }, source: 'studio' });
    // What the debug panel shows hides the key.
    expect(shownRequest(r).url).toContain('appid=****');
  });

  it('names what is missing or of the wrong type', () => {
    expect(() => buildRequest(plugin, api, { filter: { min: 1 } }, 'k')).toThrow(
      new InputError('The parameter id is required.'),
    );
    expect(() => buildRequest(plugin, api, { id: '1', filter: {} }, 'k')).toThrow(
      'The parameter filter.min is required.',
    );
    expect(() => buildRequest(plugin, api, { id: '1', filter: { min: 'lots' } }, 'k')).toThrow(
      'filter.min must be a number',
    );
    expect(() => buildRequest(plugin, api, { id: '1', filter: 'x' }, 'k')).toThrow('filter must be an object.');
    expect(() => buildRequest({ ...plugin, url: '' }, api, {}, 'k')).toThrow(/no server URL/);
  });

  it('gives models and canvases the parameters as JSON Schema and fields', () => {
    expect(paramsToJsonSchema(api.request_params)).toMatchObject({
      type: 'object',
      required: ['id', 'filter'],
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        filter: {
          type: 'object',
          required: ['min'],
          properties: { min: { type: 'number' }, open: { type: 'boolean' } },
        },
      },
    });
    expect(
      paramsToFields([
        { name: 'items', type: 5, sub_parameters: [{ name: '[Array Item]', type: 4 }] },
        { name: 'bad-name', type: 1 },
        { name: 'user', type: 4, sub_parameters: [{ name: 'login', type: 1 }] },
      ]),
    ).toEqual([
      { name: 'items', type: 'array', items: 'object' },
      { name: 'user', type: 'object', children: [{ name: 'login', type: 'string' }] },
    ]);
  });
});

describe('OpenAPI import', () => {
  it('reads a document with a circular schema without looping', async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'Tree' },
      paths: {
        '/nodes': {
          get: {
            operationId: 'nodes',
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      },
    };
    const r = await importOpenApi(JSON.stringify(doc));
    expect(r.apis[0].response_params.map((p) => p.name)).toEqual(['name', 'children']);
  });

  it('skips methods the studio does not call and names the operations without an id', async () => {
    const r = await importOpenApi(
      JSON.stringify({
        openapi: '3.0.0',
        info: {},
        paths: { '/a/{b}': { get: { responses: {} }, options: { responses: {} }, head: { responses: {} } } },
      }),
    );
    expect(r.apis.map((a) => a.name)).toEqual(['get_a_b']);
    expect(r.skipped).toEqual([
      'OPTIONS /a/{b}: the method is not supported',
      'HEAD /a/{b}: the method is not supported',
    ]);
  });
});
