// Node-RED running the benchmark's 5-node flow (HTTP in, Switch on the name, two Templates, HTTP response), for
// `./tessera bench engine` to show the studio beside a flow engine people know. Node-RED is installed from the
// npm registry into .cache/bench/node-red the first time (not a dependency of the studio).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, freePort } from './studio.ts';

/** The major version installed (the figures name it). */
export const NODE_RED_VERSION = '5';
const HOME = path.join(ROOT, '.cache/bench/node-red');

function install(): string {
  const red = path.join(HOME, 'node_modules/node-red/red.js');
  if (existsSync(red)) return red;
  mkdirSync(HOME, { recursive: true });
  writeFileSync(path.join(HOME, 'package.json'), '{"name":"bench-node-red","private":true}');
  const r = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', `node-red@${NODE_RED_VERSION}`],
    { cwd: HOME, stdio: 'inherit' },
  );
  if (r.status !== 0 || !existsSync(red)) throw new Error('installing node-red from the npm registry failed');
  return red;
}

// The flow: what the studio's 5-node flow does (Start, If name is set, Text greet / Text anon, End), answering
// the same envelope as JSON.
const answer = (message: string) =>
  JSON.stringify({ code: 0, msg: '', data: JSON.stringify({ message }), execute_id: '0' }).replace(
    'NAME',
    '{{{payload.parameters.name}}}',
  );
const FLOW = [
  { id: 'tab', type: 'tab', label: 'bench' },
  { id: 'in', z: 'tab', type: 'http in', url: '/v1/workflow/run', method: 'post', wires: [['if']] },
  {
    id: 'if',
    z: 'tab',
    type: 'switch',
    property: 'payload.parameters.name',
    propertyType: 'msg',
    rules: [{ t: 'nempty' }, { t: 'else' }],
    checkall: 'false',
    outputs: 2,
    wires: [['greet'], ['anon']],
  },
  {
    id: 'greet',
    z: 'tab',
    type: 'template',
    field: 'payload',
    fieldType: 'msg',
    format: 'handlebars',
    syntax: 'mustache',
    template: answer('Hello, NAME!'),
    output: 'str',
    wires: [['out']],
  },
  {
    id: 'anon',
    z: 'tab',
    type: 'template',
    field: 'payload',
    fieldType: 'msg',
    format: 'handlebars',
    syntax: 'mustache',
    template: answer('Hello, stranger!'),
    output: 'str',
    wires: [['out']],
  },
  {
    id: 'out',
    z: 'tab',
    type: 'http response',
    statusCode: '200',
    headers: { 'content-type': 'application/json' },
    wires: [],
  },
];

export interface NodeRed {
  url: string;
  stop(): Promise<void>;
}

/** Node-RED with the flow, its editor off, on a free loopback port. */
export async function startNodeRed(): Promise<NodeRed> {
  const red = install();
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-node-red-'));
  const port = await freePort();
  writeFileSync(path.join(dir, 'flows.json'), JSON.stringify(FLOW));
  writeFileSync(
    path.join(dir, 'settings.js'),
    `module.exports = ${JSON.stringify({ uiPort: port, uiHost: '127.0.0.1', flowFile: 'flows.json', userDir: dir, httpAdminRoot: false, disableEditor: true, logging: { console: { level: 'warn' } }, credentialSecret: false })};`,
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [red, '--settings', path.join(dir, 'settings.js'), '--userDir', dir],
    { cwd: dir, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/v1/workflow/run`;
  try {
    for (let i = 0; ; i++) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"parameters":{"name":"Bench"}}',
      }).catch(() => undefined);
      if (r?.ok && (await r.text()).includes('Hello, Bench!')) break;
      if (i > 600) throw new Error('Node-RED did not answer the flow');
      await new Promise((res) => setTimeout(res, 50));
    }
  } catch (e) {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  let stopped: Promise<void> | undefined;
  return {
    url,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }).then(() => rmSync(dir, { recursive: true, force: true }))),
  };
}
