import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRoutes, type ApiRoute } from '@tessera/sdk/server';
import { exampleExtensionsDir, startStudio, type RunningStudio } from '../helpers.ts';
import { Agent, signUp } from '../agent.ts';

// Every route of every enabled extension: anonymous callers get 401; a user of another space gets 403.
// Later extensions are covered by this test without writing it again.
let studio: RunningStudio;
let outsider: Agent;
let foreignSpace: string;
beforeAll(async () => {
  studio = await startStudio({ extensionsDir: exampleExtensionsDir() });
  const owner = await signUp(studio.url, 'space-owner');
  foreignSpace = (await owner.agent.post('/api/space/create', { name: 'Not yours' })).space_id;
  outsider = (await signUp(studio.url, 'outsider')).agent;
});
afterAll(() => studio.close());

function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name) => encodeURIComponent(values[name] ?? '1')).replace(/\*/g, 'x');
}

function routes(): { owner: string; route: ApiRoute }[] {
  return studio.server.host.points
    .registry(ApiRoutes)
    .entries()
    .map((e) => ({ owner: e.owner, route: e.value }));
}

describe('authorization of every registered route', () => {
  it('covers the routes of the built-in and runtime-loaded extensions', () => {
    const owners = new Set(routes().map((r) => r.owner));
    for (const id of ['identity', 'spaces', 'hello']) expect(owners).toContain(id);
  });

  it('answers 401 to an anonymous caller on every route that is not anonymous', async () => {
    const failures: string[] = [];
    for (const { owner, route } of routes()) {
      if (route.auth === 'anonymous') continue;
      const res = await fetch(studio.url + fill(route.path), {
        method: route.method,
        headers: route.method === 'GET' ? {} : { 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      });
      // A streaming open-API route answers as Coze does: HTTP 200 with the JSON error body (4100: sign in).
      const refused =
        res.status === 401 ||
        (route.stream && /^\/v[13]\//.test(route.path) && res.status === 200 && (await res.json()).code === 4100);
      if (!refused) failures.push(`${owner}: ${route.method} ${route.path} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 to a signed-in user of another space on every space route', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { owner, route } of routes()) {
      if (typeof route.auth !== 'object' || typeof route.auth.space === 'function') continue;
      const { from, field } = route.auth.space;
      const body: Record<string, unknown> = {};
      let path = fill(route.path, { [field]: foreignSpace });
      const headers: Record<string, string> = {};
      if (from === 'body') body[field] = foreignSpace;
      if (from === 'query') path += `${path.includes('?') ? '&' : '?'}${field}=${foreignSpace}`;
      if (from === 'header') headers[field] = foreignSpace;
      const res = await outsider.request(route.method, path, route.method === 'GET' ? undefined : body);
      checked++;
      if (res.status !== 403)
        failures.push(`${owner}: ${route.method} ${route.path} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
