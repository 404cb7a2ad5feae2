import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// What outside clients and attackers reach, against a real studio process (also run on PostgreSQL in CI):
// each case here was found open and is closed.
let studio: RunningStudio;
let owner: Agent;
let space: string;
beforeAll(async () => {
  studio = await startStudio({
    env: {
      TESSERA_EXT_FILES: JSON.stringify({ spaceQuotaBytes: 3 * 1024 * 1024 }),
      TESSERA_ALLOW_PRIVATE_NETWORK: 'true',
    },
  });
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Trust' })).space_id;
});
afterAll(() => studio?.close());

describe('the per-space file quota', () => {
  it('holds under concurrent uploads: 8 parallel 900 KB files against 3 MiB store 3', async () => {
    const form = (i: number) => {
      const f = new FormData();
      f.append('file', new Blob([String(i % 10).repeat(900 * 1024)]), `part-${i}.txt`);
      return f;
    };
    const headers = {
      cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': decodeURIComponent(owner.cookies.get('tessera_csrf')!),
    };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${studio.url}/api/files/upload?space_id=${space}`, { method: 'POST', headers, body: form(i) }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 413)).toHaveLength(5);
    const list = await owner.post('/api/files/list', { space_id: space });
    expect(list.used_bytes).toBe(3 * 900 * 1024);
    expect(list.total).toBe(3);
  });
});

describe('URLs that are saved and later shown or fetched', () => {
  const plugin = (body: Record<string, unknown>) =>
    owner.request('POST', '/api/plugin_api/register_plugin_meta', {
      space_id: space,
      name: `OAuth ${Math.random()}`,
      url: 'http://127.0.0.1:9/v1',
      ...body,
    });
  it.each(['javascript:alert(document.cookie)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>'])(
    "refuses %s as a plugin's OAuth authorization URL",
    async (bad) => {
      const r = await plugin({
        auth_type: [3],
        oauth_info: JSON.stringify({
          client_id: 'c',
          client_secret: 's',
          client_url: bad,
          authorization_url: 'https://idp.example.com/token',
        }),
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain('authorization URL as an http:// or https:// address');
    },
  );

  it('refuses other schemes for plugin and MCP servers, web pages to fetch, model base URLs and icons', async () => {
    expect((await plugin({ url: 'file:///etc/passwd' })).body.msg).toContain(
      'server URL as an http:// or https:// address',
    );
    expect(
      (
        await owner.request('POST', '/api/draftbot/create', {
          space_id: space,
          name: 'Icon',
          icon_uri: 'javascript:alert(1)',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await owner.request('POST', '/api/draftbot/create', {
          space_id: space,
          name: 'Icon',
          icon_uri: 'data:image/png;base64,iVBORw0KGgo=',
        })
      ).status,
    ).toBe(200);
    // The studio's preset icons and its own paths are pictures too.
    expect(
      (
        await owner.request('POST', '/api/workflow_api/create', {
          space_id: space,
          name: 'Preset icon',
          icon_uri: 'icon:calendar',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await owner.request('POST', '/api/workflow_api/create', {
          space_id: space,
          name: 'Path icon',
          icon_uri: '/api/files/content/1?exp=1&sig=x',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await owner.request('POST', '/api/workflow_api/create', {
          space_id: space,
          name: 'Bad icon',
          icon_uri: 'icon:<script>',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await owner.request('POST', '/api/draftbot/create', {
          space_id: space,
          name: 'Coloured',
          icon_uri: 'color:#165DFF',
        })
      ).status,
    ).toBe(200);
    const cred = await owner.request('POST', '/api/model_manage/v1/platform/credential/create', {
      provider: 'openai-compatible',
      name: 'Local',
      base_url: 'file:///etc/passwd',
      api_key: 'k',
    });
    expect(cred.status).toBe(400);
  });
});

describe('text that is not well-formed', () => {
  it('refuses a lone UTF-16 surrogate anywhere in a JSON body with a 400 naming where, and stores nothing', async () => {
    const send = (text: string) =>
      fetch(`${studio.url}/api/space/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-csrf-token': decodeURIComponent(owner.cookies.get('tessera_csrf')!),
        },
        body: text,
      });
    const before = (await owner.post('/api/space/list', {})).spaces.length;
    for (const [text, at] of [
      ['{"name":"Team \\ud800"}', 'at name'],
      ['{"name":"ok","description":"\\udfff tail"}', 'at description'],
      ['{"name":"ok","x":{"\\ud83d":1}}', 'at x.\ud83d'],
    ] as const) {
      const r = await send(text);
      const body = await r.json();
      expect([r.status, body.msg], text).toEqual([
        400,
        expect.stringContaining(`The request body ${at} holds text that is not well-formed`),
      ]);
      expect(body.log_id ?? r.headers.get('x-tt-logid')).toBeTruthy();
    }
    // A surrogate pair (an emoji) is well-formed and kept as sent.
    const ok = await send('{"name":"Team \\ud83d\\ude00"}');
    expect(ok.status).toBe(200);
    expect((await owner.post('/api/space/list', {})).spaces.map((s: { name: string }) => s.name)).toContain('Team 😀');
    expect((await owner.post('/api/space/list', {})).spaces.length).toBe(before + 1);
  });
});

describe('stored data that cannot be read', () => {
  it('says what failed instead of reading it as empty, and a save does not overwrite it', async () => {
    const { memorybase_id } = await owner.post('/api/long_term_memory/memorybase/create', {
      space_id: space,
      name: 'Customers',
      metas: [{ key: 'city', description: 'Where they live' }],
    });
    await studio.server.database.db
      .updateTable('memory_base')
      .set({ metas: '[{"key":"city"' })
      .where('id', '=', memorybase_id)
      .execute();
    const read = await owner.request('POST', '/api/long_term_memory/get_memory_meta_list', {
      space_id: space,
      memorybase_id,
    });
    expect(read.status).toBe(500);
    expect(read.body.msg).toMatch(
      /^A memory base's keys is stored in a form the studio cannot read \(.+\); nothing was changed\. Quote the log id/,
    );
    const write = await owner.request('POST', '/api/long_term_memory/update_memory_meta', {
      space_id: space,
      memorybase_id,
      metas: [{ key: 'age', description: 'How old' }],
    });
    expect(write.status).toBe(500);
    const row = await studio.server.database.db
      .selectFrom('memory_base')
      .select('metas')
      .where('id', '=', memorybase_id)
      .executeTakeFirstOrThrow();
    expect(row.metas).toBe('[{"key":"city"');
  });

  it('answers a taken email with a 409 that says to sign in', async () => {
    const taken = await signUp(studio.url, 'taken');
    const again = await owner.request('POST', '/api/passport/web/email/register/v2', {
      email: taken.email,
      password: 'correct horse battery',
    });
    expect([again.status, again.body.msg]).toEqual([409, 'An account with this email exists. Sign in instead.']);
  });
});
