// ./tessera bench plugin [runs=500]: what an Api node adds over calling the API directly. A published
// workflow Start -> Api node (getPet of the pet-store plugin, API key auth) -> End and the same workflow
// without the node run through POST /v1/workflow/run; the pet-store server is also called straight from
// this process. Added = p50(with node) - p50(without node) - p50(direct). Target: under 1 ms at p50.
import { Agent } from '../tests/agent.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer } from '../tests/fixtures/plugin-server.ts';
import { link, node, ref } from '../tests/workflow-kit.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export default async function pluginBench(args: string[]) {
  const n = Number(args[0] ?? 500);
  const pets = await startPluginServer();
  const studio = await startBenchStudio({ TESSERA_ALLOW_PRIVATE_NETWORK: 'true' });
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const { plugin_id } = await user.post('/api/plugin_api/register', {
      space_id: space,
      openapi: petStoreOpenApi3(pets.url),
      name: 'Pets',
      service_token: API_KEY,
    });
    const info = await user.post('/api/plugin_api/get_plugin_info', { space_id: space, plugin_id });
    const getPet = info.api_info.find((a: { name: string }) => a.name === 'getPet');
    await user.post('/api/plugin_api/publish_plugin', { space_id: space, plugin_id, version_name: 'v1.0.0' });
    const publish = async (name: string, schema: unknown) => {
      const { workflow_id } = await user.post('/api/workflow_api/create', { space_id: space, name });
      await user.post('/api/workflow_api/save', { space_id: space, workflow_id, schema });
      await user.post('/api/workflow_api/publish', {
        space_id: space,
        workflow_id,
        workflow_version: 'v1.0.0',
        force: true,
      });
      return workflow_id as string;
    };
    const start = node('start', '1', { outputs: [{ name: 'id', type: 'integer', required: true }] });
    const withNode = await publish('with api node', {
      nodes: [
        start,
        node('pet', '4', {
          inputs: [ref('petId', 'start', ['id'], 'integer')],
          outputs: [{ name: 'name', type: 'string' }],
          settings: { plugin_id, api_id: getPet.api_id },
        }),
        node('end', '2', { inputs: [ref('name', 'pet', ['name'])] }),
      ],
      links: [link('start', 'pet'), link('pet', 'end')],
    });
    const without = await publish('without', {
      nodes: [start, node('end', '2', { inputs: [ref('id', 'start', ['id'], 'integer')] })],
      links: [link('start', 'end')],
    });
    const pat = await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const run = (workflow_id: string) => async () => {
      const r = await fetch(`${studio.url}/v1/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pat.token}` },
        body: JSON.stringify({ workflow_id, parameters: { id: 1 } }),
      });
      const body = (await r.json()) as { code: number; msg: string };
      if (body.code !== 0) throw new Error(`run failed: ${body.msg}`);
    };
    const direct = async () => {
      const r = await fetch(`${pets.url}/v1/pets/1`, { headers: { 'x-api-key': API_KEY, accept: 'application/json' } });
      await r.text();
    };
    const a = run(withNode);
    const b = run(without);
    for (let i = 0; i < 100; i++) {
      await a();
      await b();
      await direct();
    }
    const tw: number[] = [];
    const to: number[] = [];
    const td: number[] = [];
    for (let i = 0; i < n; i++) {
      tw.push(await time(a));
      to.push(await time(b));
      td.push(await time(direct));
    }
    const p = (xs: number[], q: number) => quantile(xs, q);
    const added50 = p(tw, 0.5) - p(to, 0.5) - p(td, 0.5);
    // Tails do not subtract: the p99 added is the run's p99 with the node over its p99 without.
    const added99 = p(tw, 0.99) - p(to, 0.99);
    console.log(`plugin: an Api node calling a local API (API key auth, published plugin), ${n} runs each`);
    console.log(
      `  direct call to the API:               p50 ${p(td, 0.5).toFixed(2)} ms, p99 ${p(td, 0.99).toFixed(2)} ms`,
    );
    console.log(
      `  /v1/workflow/run without the node:   p50 ${p(to, 0.5).toFixed(2)} ms, p99 ${p(to, 0.99).toFixed(2)} ms`,
    );
    console.log(
      `  /v1/workflow/run with the Api node:  p50 ${p(tw, 0.5).toFixed(2)} ms, p99 ${p(tw, 0.99).toFixed(2)} ms`,
    );
    console.log(
      `  added by the Api node: p50 ${added50.toFixed(2)} ms (target 1 ms, ratio ${(added50 / 1).toFixed(2)}), p99 with over without ${added99.toFixed(2)} ms (the API call included)`,
    );
  } finally {
    await studio.stop();
    await pets.close();
  }
}
