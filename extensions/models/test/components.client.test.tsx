import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { defineExtension } from '@tessera/sdk/client';
import { renderExtension } from '@tessera/sdk/testing/client';
import { useState } from 'react';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { ModelParamsPanel, ModelSelect } from '../src/client/components.tsx';
import type { ModelParams } from '../src/shared/index.ts';

afterEach(cleanup);

const models = [
  {
    model_id: 'm1',
    model_name: 'fake-chat',
    display_name: 'Fake Chat',
    kind: 'chat',
    provider: 'openai-compatible',
    credential_id: 'c',
    scope: 'platform',
    enabled: true,
    capabilities: { function_call: true, json_output: true, vision: false, reasoning: false },
    default_params: {},
  },
  {
    model_id: 'm2',
    model_name: 'other',
    display_name: 'Other Model',
    kind: 'chat',
    provider: 'anthropic',
    credential_id: 'd',
    scope: 'space',
    enabled: true,
    capabilities: { function_call: false, json_output: false, vision: false, reasoning: true },
    default_params: {},
  },
];
const asked: string[] = [];
const fakeFetch = (async (url: string) => {
  asked.push(url);
  return new Response(JSON.stringify({ code: 0, msg: '', data: { models } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}) as unknown as typeof fetch;

let chosen = '';
let params: ModelParams = {};
function Harness() {
  const [value, setValue] = useState<string | undefined>();
  const [p, setP] = useState<ModelParams>({ temperature: 0.7 });
  return (
    <div>
      <ModelSelect spaceId="s1" value={value} onChange={(v) => (setValue(v), (chosen = v))} />
      <ModelParamsPanel value={p} onChange={(v) => (setP(v), (params = v))} />
    </div>
  );
}
// The components translate in the models namespace: the harness registers it under that id.
const harness = defineExtension({
  id: 'models',
  register: (ctx) => (ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN }), void ctx.route({ path: '/', component: Harness })),
});

describe('model selector and parameter panel', () => {
  it('lists the enabled chat models of the space and reports the choice', async () => {
    await renderExtension(harness, { path: '/', fetch: fakeFetch });
    await waitFor(() =>
      expect(
        asked.some(
          (u) =>
            u.includes('/api/model_manage/v1/spaces/s1/v1/list') &&
            u.includes('kind=chat') &&
            u.includes('enabled_only=true'),
        ),
      ).toBe(true),
    );
    fireEvent.click(screen.getByTestId('model-select'));
    fireEvent.click(await screen.findByText('Other Model'));
    expect(chosen).toBe('m2');
  });

  it('edits temperature, top P and max tokens; an empty field means the default', async () => {
    await renderExtension(harness, { path: '/', fetch: fakeFetch, language: 'zh-CN' });
    expect(screen.getByText('温度')).toBeTruthy();
    const el = screen.getByTestId('param-max-tokens');
    const max = (el.tagName === 'INPUT' ? el : el.querySelector('input'))!;
    await act(async () => {
      fireEvent.change(max, { target: { value: '512' } });
      fireEvent.blur(max);
    });
    await waitFor(() => expect(params).toMatchObject({ temperature: 0.7, max_tokens: 512 }));
    // What is not set says it is the default (the box is not left empty next to a slider that shows a value).
    const input = (id: string) => {
      const e = screen.getByTestId(id);
      return (e.tagName === 'INPUT' ? e : e.querySelector('input'))!;
    };
    expect(input('param-top-p').getAttribute('placeholder')).toBe('1（默认）');
    expect((input('param-temperature') as HTMLInputElement).value).toBe('0.7');
  });
});
