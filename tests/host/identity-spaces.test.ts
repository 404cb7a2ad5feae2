import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { Agent, signUp } from '../agent.ts';

let studio: RunningStudio;
beforeAll(async () => {
  studio = await startStudio({
    env: { TESSERA_EXT_IDENTITY: JSON.stringify({ registerPerMinute: 10_000, loginPerAddressPerMinute: 1000 }) },
  });
});
afterAll(() => studio.close());

describe('users and sessions', () => {
  it('signs up (first user is platform admin), signs in and out; a taken unique name is refused', async () => {
    const a = await signUp(studio.url, 'alice');
    const me = await a.agent.get('/api/passport/account/info/v2');
    expect(me.email).toBe(a.user.email);
    expect(typeof me.is_platform_admin).toBe('boolean');
    const b = await signUp(studio.url, 'bob');
    expect(b.user.is_platform_admin).toBe(false);
    await a.agent.post('/api/user/update_profile', { user_unique_name: 'alice_unique' });
    expect(await b.agent.post('/api/user/update_profile_check', { user_unique_name: 'alice_unique' })).toEqual({
      valid: false,
      msg: 'This name is taken.',
    });
    expect(
      (await b.agent.request('POST', '/api/user/update_profile', { user_unique_name: 'alice_unique' })).status,
    ).toBe(409);
    await a.agent.post('/api/passport/web/logout');
    expect((await a.agent.request('GET', '/api/passport/account/info/v2')).status).toBe(401);
    const again = new Agent(studio.url);
    expect(
      (await again.request('POST', '/api/passport/web/email/login', { email: a.email, password: 'wrong password' }))
        .status,
    ).toBe(401);
    await again.post('/api/passport/web/email/login', { email: a.email, password: 'correct horse battery' });
    expect((await again.get('/api/passport/account/info/v2')).user_unique_name).toBe('alice_unique');
  });

  it('stores passwords with a memory-hard KDF and cookies are httpOnly and SameSite', async () => {
    const agent = new Agent(studio.url);
    const r = await agent.request('POST', '/api/passport/web/email/register/v2', {
      email: `kdf-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const cookies = r.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('tessera_session='))).toMatch(/HttpOnly/);
    expect(cookies.find((c) => c.startsWith('tessera_session='))).toMatch(/SameSite=Lax/);
    const row = await studio.server.database.db
      .selectFrom('identity_user')
      .select('password_hash')
      .where('email', '=', r.body.data.email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it('refuses cookie writes without the CSRF token', async () => {
    const { agent } = await signUp(studio.url);
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${studio.url}/api/space/create`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toMatch(/CSRF/);
  });

  it('rate limits sign-in attempts', async () => {
    const agent = new Agent(studio.url);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await agent.request('POST', '/api/passport/web/email/login', { email: 'nobody@example.com', password: 'x' }))
          .status,
      );
    const first429 = statuses.indexOf(429);
    expect(first429).toBeGreaterThan(0);
    expect(statuses.slice(0, first429).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(first429).every((s) => s === 429)).toBe(true);
  });

  it('limits failures per account and per address: guessing one account does not lock out another', async () => {
    const victim = await signUp(studio.url, 'victim');
    const other = await signUp(studio.url, 'bystander');
    const attacker = new Agent(studio.url);
    const guesses: number[] = [];
    for (let i = 0; i < 12; i++)
      guesses.push(
        (
          await attacker.request('POST', '/api/passport/web/email/login', {
            email: victim.email,
            password: `guess ${i}`,
          })
        ).status,
      );
    expect(guesses.at(-1)).toBe(429);
    const locked = await attacker.request('POST', '/api/passport/web/email/login', {
      email: victim.email,
      password: 'correct horse battery',
    });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(
      /^Too many failed sign-ins for this account\. Try again in \d+ seconds, or reset the password\.$/,
    );
    const seconds = Number(locked.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    // The same address signs another account in at once.
    expect(
      (
        await attacker.request('POST', '/api/passport/web/email/login', {
          email: other.email,
          password: 'correct horse battery',
        })
      ).status,
    ).toBe(200);
    // The victim's own browser, which signed this account in before, is not locked out by the attacker's guesses.
    expect(
      (
        await victim.agent.request('POST', '/api/passport/web/email/login', {
          email: victim.email,
          password: 'correct horse battery',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await new Agent(studio.url).request('POST', '/api/passport/web/email/login', {
          email: victim.email,
          password: 'correct horse battery',
        })
      ).status,
    ).toBe(429);
  });

  it('limits failures from one address across many accounts (credential stuffing), saying how long to wait', async () => {
    const own = await startStudio();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++)
        statuses.push(
          (
            await fetch(`${own.url}/api/passport/web/email/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: `stuffed${i}@example.com`, password: 'leaked password' }),
            })
          ).status,
        );
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
      const last = await fetch(`${own.url}/api/passport/web/email/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'stuffed99@example.com', password: 'x' }),
      });
      expect((await last.json()).msg).toMatch(
        /^Too many failed sign-ins from your network address\. Try again in \d+ seconds\.$/,
      );
      // In the caller's language.
      const zh = await fetch(`${own.url}/api/passport/web/email/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN' },
        body: JSON.stringify({ email: 'stuffed98@example.com', password: 'x' }),
      });
      expect((await zh.json()).msg).toMatch(/^来自你的网络地址的登录失败次数过多，请 \d+ 秒后再试。$/);
    } finally {
      await own.close();
    }
  });

  it('limits failures per address too, reading the client address from a trusted proxy only', async () => {
    const proxied = await startStudio({
      env: { TESSERA_EXT_IDENTITY: JSON.stringify({ loginPerAddressPerMinute: 5 }), TESSERA_TRUST_PROXY: 'true' },
    });
    try {
      const a = await signUp(proxied.url, 'behind-proxy');
      const from = (ip: string, email: string, password: string) =>
        fetch(`${proxied.url}/api/passport/web/email/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ email, password }),
        });
      for (let i = 0; i < 5; i++) await from('203.0.113.7', `nobody${i}@example.com`, 'x');
      const blocked = await from('203.0.113.7', a.email, 'correct horse battery');
      expect(blocked.status).toBe(429);
      expect((await blocked.json()).msg).toMatch(
        /^Too many failed sign-ins from your network address\. Try again in \d+ seconds\.$/,
      );
      expect((await from('198.51.100.9', a.email, 'correct horse battery')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('spaces, members and roles', () => {
  it('gives every user a personal space and creates team spaces', async () => {
    const { agent } = await signUp(studio.url);
    const { spaces } = await agent.post('/api/space/list');
    expect(spaces).toHaveLength(1);
    expect(spaces[0]).toMatchObject({ space_type: 1, role_type: 1 });
    const team = await agent.post('/api/space/create', { name: 'Team A', description: 'ours' });
    // One owner's team spaces have different names: the switcher tells them apart by name.
    const again = await agent.request('POST', '/api/space/create', { name: 'team a' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('You already have a team space named "team a". Choose another name.');
    expect(team).toMatchObject({ name: 'Team A', space_type: 2, role_type: 1, member_count: 1 });
    expect((await agent.post('/api/space/list')).spaces.map((s: any) => s.name)).toContain('Team A');
    const updated = await agent.post('/api/space/update', { space_id: team.space_id, name: 'Team B' });
    expect(updated.name).toBe('Team B');
  });

  it('a removed member loses access immediately', async () => {
    const owner = await signUp(studio.url);
    const member = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Removal' });
    await owner.agent.post('/api/space/member/add', { space_id: team.space_id, user_ids: [member.user.user_id] });
    expect((await member.agent.post('/api/space/info', { space_id: team.space_id })).role_type).toBe(3);
    await owner.agent.post('/api/space/member/remove', { space_id: team.space_id, user_id: member.user.user_id });
    const r = await member.agent.request('POST', '/api/space/info', { space_id: team.space_id });
    expect(r.status).toBe(403);
  });

  it('an admin cannot demote or remove the owner, nor promote to admin; the owner can', async () => {
    const owner = await signUp(studio.url);
    const admin = await signUp(studio.url);
    const member = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Roles' });
    await owner.agent.post('/api/space/member/add', {
      space_id: team.space_id,
      user_ids: [admin.user.user_id],
      role_type: 2,
    });
    await owner.agent.post('/api/space/member/add', { space_id: team.space_id, user_ids: [member.user.user_id] });
    const demote = await admin.agent.request('POST', '/api/space/member/update', {
      space_id: team.space_id,
      user_id: owner.user.user_id,
      space_role_type: 3,
    });
    expect(demote.status).toBe(403);
    expect(
      (
        await admin.agent.request('POST', '/api/space/member/remove', {
          space_id: team.space_id,
          user_id: owner.user.user_id,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await admin.agent.request('POST', '/api/space/member/update', {
          space_id: team.space_id,
          user_id: member.user.user_id,
          space_role_type: 2,
        })
      ).status,
    ).toBe(403);
    // A member cannot manage members at all.
    expect(
      (await member.agent.request('POST', '/api/space/member/add', { space_id: team.space_id, user_ids: [] })).status,
    ).toBe(403);
    await owner.agent.post('/api/space/member/update', {
      space_id: team.space_id,
      user_id: member.user.user_id,
      space_role_type: 2,
    });
    const auth = await member.agent.post('/api/space/role/auth', { space_id: team.space_id });
    expect(auth).toMatchObject({
      space_role_type: 2,
      permissions: { manage_members: true, transfer_ownership: false, delete_space: false },
    });
  });

  it('the last owner cannot exit without a successor; with one, ownership moves', async () => {
    const owner = await signUp(studio.url);
    const next = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Exit' });
    await owner.agent.post('/api/space/member/add', { space_id: team.space_id, user_ids: [next.user.user_id] });
    const r = await owner.agent.request('POST', '/api/space/member/exit', { space_id: team.space_id });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/successor/);
    await owner.agent.post('/api/space/member/exit', { space_id: team.space_id, successor_user_id: next.user.user_id });
    expect((await next.agent.post('/api/space/info', { space_id: team.space_id })).role_type).toBe(1);
    expect((await owner.agent.request('POST', '/api/space/info', { space_id: team.space_id })).status).toBe(403);
  });

  it('transfers ownership and only the owner deletes a team space', async () => {
    const owner = await signUp(studio.url);
    const other = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Transfer' });
    await owner.agent.post('/api/space/member/add', { space_id: team.space_id, user_ids: [other.user.user_id] });
    expect((await other.agent.request('POST', '/api/space/delete', { space_id: team.space_id })).status).toBe(403);
    await owner.agent.post('/api/space/member/transfer', { space_id: team.space_id, user_id: other.user.user_id });
    expect((await owner.agent.post('/api/space/info', { space_id: team.space_id })).role_type).toBe(2);
    await other.agent.post('/api/space/delete', { space_id: team.space_id });
    expect((await other.agent.request('POST', '/api/space/info', { space_id: team.space_id })).status).toBe(403);
  });

  it('joins by invite link; a revoked link stops working; an approval link creates an application', async () => {
    const owner = await signUp(studio.url);
    const joiner = await signUp(studio.url);
    const applicant = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Invites' });
    const link = await owner.agent.post('/api/space/invite', { space_id: team.space_id });
    expect(link).toMatchObject({ status: 1, space_role_type: 3, invite_path: `/invite/${link.invite_key}` });
    expect((await joiner.agent.get(`/api/space/invite/info?invite_key=${link.invite_key}`)).space_name).toBe('Invites');
    expect(await joiner.agent.post('/api/space/join', { invite_key: link.invite_key })).toMatchObject({
      status: 'joined',
    });
    await owner.agent.post('/api/playground_api/space/invite/revoke', {
      space_id: team.space_id,
      invite_id: link.invite_id,
    });
    expect((await applicant.agent.request('POST', '/api/space/join', { invite_key: link.invite_key })).status).toBe(
      403,
    );
    const { invites } = await owner.agent.post('/api/playground_api/space/invite/manage_list', {
      space_id: team.space_id,
    });
    expect(invites[0]).toMatchObject({ status: 2, join_count: 1 });

    const approval = await owner.agent.post('/api/space/invite', { space_id: team.space_id, need_approval: true });
    expect(
      await applicant.agent.post('/api/space/join', { invite_key: approval.invite_key, message: 'let me in' }),
    ).toMatchObject({ status: 'applied' });
    expect((await applicant.agent.request('POST', '/api/space/info', { space_id: team.space_id })).status).toBe(403);
    const { applies } = await owner.agent.post('/api/playground_api/space/apply/manage_list', {
      space_id: team.space_id,
      status: 1,
    });
    expect(applies).toHaveLength(1);
    expect(applies[0]).toMatchObject({ message: 'let me in', status: 1 });
    await owner.agent.post('/api/playground_api/space/operate_apply', {
      space_id: team.space_id,
      apply_id: applies[0].apply_id,
      action: 'approve',
    });
    expect((await applicant.agent.post('/api/space/info', { space_id: team.space_id })).role_type).toBe(3);
  });

  it('manages publish members', async () => {
    const owner = await signUp(studio.url);
    const m = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Publishers' });
    await owner.agent.post('/api/space/member/add', { space_id: team.space_id, user_ids: [m.user.user_id] });
    await owner.agent.post('/api/playground_api/space/publish_member/add', {
      space_id: team.space_id,
      user_ids: [m.user.user_id],
    });
    expect(
      (await m.agent.post('/api/playground_api/space/publish_member/list', { space_id: team.space_id })).members.map(
        (x: any) => x.user_id,
      ),
    ).toEqual([m.user.user_id]);
    await owner.agent.post('/api/playground_api/space/publish_member/remove', {
      space_id: team.space_id,
      user_id: m.user.user_id,
    });
    expect(
      (await m.agent.post('/api/playground_api/space/publish_member/search', { space_id: team.space_id })).total,
    ).toBe(0);
  });
});

describe('personal access tokens and the open API', () => {
  it('shows the secret once, stores it hashed, works within its permissions, and stops at once when deleted', async () => {
    const owner = await signUp(studio.url);
    const team = await owner.agent.post('/api/space/create', { name: 'Token team' });
    const other = await owner.agent.post('/api/space/create', { name: 'Not in token' });
    const created = await owner.agent.post('/api/permission_api/pat/create', {
      name: 'ci',
      duration_day: '30',
      workspace_permission_list: [{ workspace_id: team.space_id, permissions: ['workspace.read', 'member.read'] }],
    });
    expect(created.token).toMatch(/^pat_/);
    const listed = await owner.agent.get('/api/permission_api/pat/list_personal_access_tokens');
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(listed.personal_access_tokens[0]).toMatchObject({
      name: 'ci',
      hint: created.token.slice(-4),
      status: 'active',
    });
    const rows = await studio.server.database.db.selectFrom('identity_pat').select('token_hash').execute();
    expect(JSON.stringify(rows)).not.toContain(created.token);

    const bot = new Agent(studio.url, { bearer: created.token });
    expect((await bot.get('/v1/users/me')).user_id).toBe(owner.user.user_id);
    const ws = await bot.get('/v1/workspaces');
    expect(ws.workspaces.map((w: any) => w.id)).toEqual([team.space_id]);
    expect((await bot.get(`/v1/workspaces/${team.space_id}/members`)).items[0]).toMatchObject({
      user_id: owner.user.user_id,
      role_type: 'owner',
    });
    // Without the workspace's permission: 403 there.
    expect((await bot.request('GET', `/v1/workspaces/${other.space_id}/members`)).status).toBe(403);
    // Without the permission in the workspace: 403.
    expect(
      (
        await bot.request('POST', `/v1/workspaces/${team.space_id}/members`, {
          users: [{ user_id: owner.user.user_id }],
        })
      ).status,
    ).toBe(403);
    // Tokens do not open the studio's internal API.
    expect((await bot.request('POST', '/api/space/list', {})).status).toBe(403);
    expect(
      await owner.agent.post('/api/permission_api/pat/check_personal_access_token_in_workspace', {
        id: created.personal_access_token.id,
        workspace_id: other.space_id,
      }),
    ).toMatchObject({ allowed: false });

    await owner.agent.post('/api/permission_api/pat/delete', { id: created.personal_access_token.id });
    const after = await bot.request('GET', '/v1/users/me');
    expect(after.status).toBe(401);
  });

  it('an expired token stops working', async () => {
    const owner = await signUp(studio.url);
    const expireAt = Math.floor(Date.now() / 1000) + 2;
    const created = await owner.agent.post('/api/permission_api/pat/create', {
      name: 'short',
      expire_at: expireAt,
      workspace_permission_list: [],
    });
    const bot = new Agent(studio.url, { bearer: created.token });
    expect((await bot.request('GET', '/v1/users/me')).status).toBe(200);
    // Used (and so kept in memory) before it expires: expiry still applies to the next call.
    await new Promise((r) => setTimeout(r, expireAt * 1000 - Date.now() + 20));
    const r = await bot.request('GET', '/v1/users/me');
    expect(r.status).toBe(401);
    expect(r.body.msg).toMatch(/expired/);
  });

  it('manages workspaces and members through the open API', async () => {
    const owner = await signUp(studio.url);
    const newcomer = await signUp(studio.url);
    const pat = await owner.agent.post('/api/permission_api/pat/create', {
      name: 'admin',
      duration_day: 'permanent',
      workspace_permission_list: [],
    });
    const bot = new Agent(studio.url, { bearer: pat.token });
    expect((await bot.request('POST', '/v1/workspaces', { name: 'nope' })).status).toBe(403);
    const ws = await owner.agent.ok('POST', '/v1/workspaces', { name: 'Open team' });
    await owner.agent.post('/api/permission_api/pat/update', {
      id: pat.personal_access_token.id,
      workspace_permission_list: [
        { workspace_id: ws.id, permissions: ['member.read', 'member.manage', 'workspace.manage'] },
      ],
    });
    expect(
      (
        await bot.ok('POST', `/v1/workspaces/${ws.id}/members`, {
          users: [{ user_id: newcomer.user.user_id, role_type: 'member' }],
        })
      ).added_success_user_ids,
    ).toEqual([newcomer.user.user_id]);
    await bot.ok('PUT', `/v1/workspaces/${ws.id}/members/${newcomer.user.user_id}`, { role_type: 'admin' });
    expect((await newcomer.agent.post('/api/space/info', { space_id: ws.id })).role_type).toBe(2);
    expect(
      (
        await bot.ok('DELETE', `/v1/workspaces/${ws.id}/members`, {
          user_ids: [newcomer.user.user_id, owner.user.user_id],
        })
      ).owner_not_support_remove_user_ids,
    ).toEqual([owner.user.user_id]);
    const outsider = await signUp(studio.url);
    expect(await outsider.agent.ok('POST', `/v1/workspaces/${ws.id}/members/apply`, { message: 'hi' })).toMatchObject({
      status: 'pending',
    });
    await bot.ok('DELETE', `/v1/workspaces/${ws.id}`);
  });
});
