import { describe, expect, it } from 'vitest';
import { Canvas, type CanvasNode, type NodeTypeDefinition } from '../src/shared/index.ts';
import { WorkflowEngine, type RunRequest } from '../src/server/engine/engine.ts';
import { validateCanvas } from '../src/server/engine/validate.ts';

// Node types made for the engine's tests: the engine itself names none.
const log: string[] = [];
const types: NodeTypeDefinition[] = [
  {
    key: 'begin',
    code: 1,
    category: 'basic',
    role: 'entry',
    label: { 'en-US': 'Begin', 'zh-CN': '开始' },
    execute: (ctx) => ({ outputs: { ...ctx.inputs } }),
  },
  {
    key: 'finish',
    code: 2,
    category: 'basic',
    role: 'exit',
    label: { 'en-US': 'Finish', 'zh-CN': '结束' },
    execute: (ctx) => ({ outputs: { ...ctx.inputs } }),
  },
  {
    key: 'sleep',
    code: 900,
    category: 'utility',
    label: { 'en-US': 'Sleep', 'zh-CN': '等待' },
    async execute(ctx) {
      log.push(`start ${ctx.node.node_id}`);
      await new Promise((r, j) => {
        const t = setTimeout(r, Number(ctx.settings.ms ?? 20));
        ctx.signal.addEventListener(
          'abort',
          () => (log.push(`aborted ${ctx.node.node_id}`), clearTimeout(t), j(new Error('aborted'))),
        );
      });
      log.push(`end ${ctx.node.node_id}`);
      return { outputs: { slept: ctx.node.node_id, ...ctx.inputs } };
    },
  },
  {
    key: 'pick',
    code: 901,
    category: 'logic',
    label: { 'en-US': 'Pick', 'zh-CN': '选' },
    ports: () => ['a', 'b'],
    execute: (ctx) => ({ outputs: {}, branch: String(ctx.inputs.which) }),
  },
  {
    key: 'flaky',
    code: 902,
    category: 'utility',
    label: { 'en-US': 'Flaky', 'zh-CN': '不稳' },
    execute(ctx) {
      const n = (flakyCalls[ctx.node.node_id] = (flakyCalls[ctx.node.node_id] ?? 0) + 1);
      if (n <= Number(ctx.settings.failures ?? 0)) throw new Error(`failure ${n}`);
      return { outputs: { attempt: n } };
    },
  },
  {
    key: 'ask',
    code: 903,
    category: 'interaction',
    label: { 'en-US': 'Ask', 'zh-CN': '问' },
    execute: (ctx) =>
      ctx.resume === undefined ? ctx.interrupt({ type: 2, data: { q: 'name?' } }) : { outputs: { answer: ctx.resume } },
  },
];
const flakyCalls: Record<string, number> = {};
const byType = new Map(
  types.flatMap(
    (t) =>
      [
        [t.key, t],
        [String(t.code), t],
      ] as const,
  ),
);
const engine = new WorkflowEngine({
  typeOf: (t) => byType.get(t),
  fetch: () => Promise.reject(new Error('no network in tests')),
});

const node = (node_id: string, type: string, extra: Partial<CanvasNode['node_param']> = {}): CanvasNode => ({
  node_id,
  type,
  node_param: { inputs: [], outputs: [], settings: {}, ...extra },
  layout: { x: 0, y: 0 },
});
const ref = (name: string, node_id: string, path: string[] = [], type: 'string' | 'integer' = 'string') => ({
  name,
  type,
  value: { kind: 'ref' as const, node_id, path },
});
const link = (from: string, to: string, branch?: string) => ({
  from_node_id: from,
  to_node_id: to,
  ...(branch ? { if_node_branch: branch } : {}),
});
const run = (canvas: unknown, input: Record<string, unknown> = {}, extra: Partial<RunRequest> = {}) =>
  engine.run({ canvas: Canvas.parse(canvas), input, runId: 'r1', spaceId: 's', userId: 'u', executeMode: 1, ...extra });

describe('workflow engine', () => {
  it('runs parallel branches concurrently and joins them when all are ready', async () => {
    log.length = 0;
    const canvas = {
      nodes: [
        node('start', 'begin'),
        node('a', 'sleep', { settings: { ms: 30 } }),
        node('b', 'sleep', { settings: { ms: 30 } }),
        node('end', 'finish', { inputs: [ref('a', 'a', ['slept']), ref('b', 'b', ['slept'])] }),
      ],
      links: [link('start', 'a'), link('start', 'b'), link('a', 'end'), link('b', 'end')],
    };
    const out = await run(canvas);
    expect(out.status).toBe('success');
    expect(out.output).toEqual({ a: 'a', b: 'b' });
    expect(log.slice(0, 2).sort()).toEqual(['start a', 'start b']);
  });

  it('skips the branch not taken, and runs a join with one active input', async () => {
    const canvas = {
      nodes: [
        node('start', 'begin'),
        node('pick', 'pick', { inputs: [ref('which', 'start', ['which'])] }),
        node('a', 'sleep', { settings: { ms: 1 } }),
        node('b', 'sleep', { settings: { ms: 1 } }),
        node('end', 'finish', { inputs: [ref('a', 'a', ['slept']), ref('b', 'b', ['slept'])] }),
      ],
      links: [
        link('start', 'pick'),
        link('pick', 'a', 'a'),
        link('pick', 'b', 'b'),
        link('a', 'end'),
        link('b', 'end'),
      ],
    };
    const out = await run(canvas, { which: 'b' });
    expect(out.status).toBe('success');
    expect(out.output).toEqual({ a: null, b: 'b' });
    expect(out.state.nodes.a.status).toBe('skipped');
  });

  it('retries, then applies the error policy: default output, error branch, or failure', async () => {
    const three = {
      nodes: [
        node('start', 'begin'),
        node('f', 'flaky', { settings: { failures: 2 }, error_policy: { retry: 2, on_error: 'throw' } }),
        node('end', 'finish', { inputs: [ref('n', 'f', ['attempt'], 'integer')] }),
      ],
      links: [link('start', 'f'), link('f', 'end')],
    };
    expect((await run(three)).output).toEqual({ n: 3 });

    const withDefault = {
      nodes: [
        node('start', 'begin'),
        node('g', 'flaky', {
          settings: { failures: 9 },
          error_policy: { retry: 1, on_error: 'default', default_output: { attempt: -1 } },
        }),
        node('end', 'finish', {
          inputs: [
            ref('n', 'g', ['attempt'], 'integer'),
            ref('ok', 'g', ['isSuccess']),
            ref('msg', 'g', ['errorBody', 'errorMessage']),
          ],
        }),
      ],
      links: [link('start', 'g'), link('g', 'end')],
    };
    expect((await run(withDefault)).output).toEqual({ n: -1, ok: 'false', msg: 'failure 2' });

    const branch = {
      nodes: [
        node('start', 'begin'),
        node('h', 'flaky', { settings: { failures: 9 }, error_policy: { retry: 0, on_error: 'branch' } }),
        node('fine', 'sleep', { settings: { ms: 1 } }),
        node('oops', 'sleep', { settings: { ms: 1 } }),
        node('end', 'finish', { inputs: [ref('fine', 'fine', ['slept']), ref('oops', 'oops', ['slept'])] }),
      ],
      links: [
        link('start', 'h'),
        link('h', 'fine'),
        { from_node_id: 'h', to_node_id: 'oops', type: 'error' },
        link('fine', 'end'),
        link('oops', 'end'),
      ],
    };
    expect((await run(branch)).output).toEqual({ fine: null, oops: 'oops' });

    const fails = {
      nodes: [node('start', 'begin'), node('i', 'flaky', { settings: { failures: 9 } }), node('end', 'finish')],
      links: [link('start', 'i'), link('i', 'end')],
    };
    expect(await run(fails)).toMatchObject({ status: 'fail', error: { node_id: 'i', message: 'failure 1' } });
  });

  it('times a node out', async () => {
    const canvas = {
      nodes: [
        node('start', 'begin'),
        node('slow', 'sleep', { settings: { ms: 500 }, error_policy: { timeout_ms: 20, retry: 0, on_error: 'throw' } }),
        node('end', 'finish'),
      ],
      links: [link('start', 'slow'), link('slow', 'end')],
    };
    expect(await run(canvas)).toMatchObject({
      status: 'fail',
      error: { node_id: 'slow', message: 'The node timed out after 20 ms.' },
    });
  });

  it('stops at an interrupt with a state that resumes with the answer', async () => {
    const canvas = {
      nodes: [
        node('start', 'begin'),
        node('ask', 'ask'),
        node('end', 'finish', { inputs: [ref('answer', 'ask', ['answer'])] }),
      ],
      links: [link('start', 'ask'), link('ask', 'end')],
    };
    const first = await run(canvas);
    expect(first.status).toBe('interrupted');
    expect(first.interrupt).toMatchObject({ node_id: 'ask', type: 2, data: { q: 'name?' } });
    const state = JSON.parse(JSON.stringify(first.state));
    const second = await run(canvas, {}, { state, resume: { event_id: first.interrupt!.event_id, data: 'Ada' } });
    expect(second).toMatchObject({ status: 'success', output: { answer: 'Ada' } });
  });

  it('cancels mid-run', async () => {
    const controller = new AbortController();
    const canvas = {
      nodes: [node('start', 'begin'), node('slow', 'sleep', { settings: { ms: 2000 } }), node('end', 'finish')],
      links: [link('start', 'slow'), link('slow', 'end')],
    };
    setTimeout(() => controller.abort(), 20);
    const began = Date.now();
    expect((await run(canvas, {}, { signal: controller.signal })).status).toBe('cancel');
    expect(Date.now() - began).toBeLessThan(1000);
  });

  it('stops the nodes still running on other branches when one fails: they get the abort signal and the run ends', async () => {
    log.length = 0;
    flakyCalls.f = 0;
    const finished: string[] = [];
    const canvas = {
      nodes: [
        node('start', 'begin'),
        node('slow', 'sleep', { settings: { ms: 600_000 } }),
        node('f', 'flaky', { settings: { failures: 9 } }),
        node('end', 'finish', { inputs: [ref('a', 'slow', ['slept']), ref('b', 'f', ['attempt'])] }),
      ],
      links: [link('start', 'slow'), link('start', 'f'), link('slow', 'end'), link('f', 'end')],
    };
    const out = await run(
      canvas,
      {},
      { hooks: { nodeFinished: (e) => finished.push(`${e.node.node_id} ${e.status} ${e.error ?? ''}`.trim()) } },
    );
    expect(out).toMatchObject({ status: 'fail', error: { node_id: 'f', message: 'failure 1' } });
    expect(log).toEqual(['start slow', 'aborted slow']);
    expect(finished).toEqual(
      expect.arrayContaining(['f fail failure 1', 'slow fail Stopped: node f failed, which ends the run.']),
    );
    expect(out.state.nodes.slow).toMatchObject({ status: 'fail' });
  });

  it('coerces inputs to their declared types and names the failing input', async () => {
    const canvas = {
      nodes: [node('start', 'begin'), node('end', 'finish', { inputs: [ref('n', 'start', ['n'], 'integer')] })],
      links: [link('start', 'end')],
    };
    expect((await run(canvas, { n: '42' })).output).toEqual({ n: 42 });
    expect(await run(canvas, { n: 'many' })).toMatchObject({
      status: 'fail',
      error: { node_id: 'end', message: "Input 'n' expects an integer, got 'many'." },
    });
  });
});

describe('node-type versions', () => {
  it('migrates nodes saved with an older version before running, and refuses ones newer than installed', async () => {
    const v2: NodeTypeDefinition = {
      key: 'shout',
      code: 950,
      version: 2,
      category: 'utility',
      label: { 'en-US': 'Shout', 'zh-CN': '喊' },
      migrate: (p, from) => (from < 2 ? { ...p, settings: { times: Number(p.settings.count ?? 1) } } : p),
      execute: (ctx) => ({ outputs: { out: 'a'.repeat(Number(ctx.settings.times)) } }),
    };
    const lookup = (t: string) => (t === 'shout' ? v2 : byType.get(t));
    const e = new WorkflowEngine({ typeOf: lookup, fetch: () => Promise.reject(new Error('no network')) });
    const canvas = (version?: number) =>
      Canvas.parse({
        nodes: [
          node('start', 'begin'),
          {
            ...node('s', 'shout', { settings: version === 2 ? { times: 3 } : { count: 3 } }),
            ...(version ? { version } : {}),
          },
          node('end', 'finish', { inputs: [ref('o', 's', ['out'])] }),
        ],
        links: [link('start', 's'), link('s', 'end')],
      });
    const go = (c: Canvas) => e.run({ canvas: c, input: {}, runId: 'v', spaceId: 's', userId: 'u', executeMode: 1 });
    expect((await go(canvas())).output).toEqual({ o: 'aaa' });
    expect((await go(canvas(2))).output).toEqual({ o: 'aaa' });
    const newer = await go(canvas(3));
    expect(newer).toMatchObject({
      status: 'fail',
      error: {
        node_id: 's',
        message:
          "Node s was saved with version 3 of 'shout', newer than the 2 installed. Upgrade the extension that provides it.",
      },
    });
  });
});

describe('validation', () => {
  const typeOf = (t: string) => byType.get(t);
  it('returns every problem at once, typed and naming node and field', () => {
    const problems = validateCanvas(
      {
        nodes: [
          node('start', 'begin'),
          node('a', 'sleep'),
          node('b', 'sleep', { inputs: [ref('x', 'a')] }),
          node('lonely', 'sleep'),
          node('x', 'nope'),
          node('end', 'finish', { inputs: [ref('y', 'ghost')] }),
        ],
        links: [link('start', 'a'), link('start', 'b'), link('a', 'end'), link('b', 'end'), link('a', 'x', 'wrong')],
      },
      typeOf,
    );
    const by = (t: number) =>
      problems.filter((p) => p.type === t).map((p) => `${p.node_id}${p.field ? `/${p.field}` : ''}`);
    expect(by(1)).toEqual(expect.arrayContaining(['x/type', 'a/links']));
    expect(by(2)).toEqual(expect.arrayContaining(['lonely', 'end/inputs.y']));
    expect(by(3)).toEqual(['b/inputs.x']);
  });

  it('checks that a reference fits the input it feeds: errors for what cannot convert, warnings for what may fail', () => {
    const typed = (name: string, type: string, node_id: string, path: string[], items?: string) => ({
      name,
      type,
      ...(items ? { items } : {}),
      value: { kind: 'ref' as const, node_id, path },
    });
    const canvas = {
      nodes: [
        node('start', 'begin', {
          title: 'Start',
          outputs: [
            { name: 'text', type: 'string' },
            { name: 'count', type: 'integer' },
            { name: 'ratio', type: 'number' },
            { name: 'tags', type: 'array', items: 'string' },
            { name: 'user', type: 'object', children: [{ name: 'age', type: 'integer' }] },
          ],
        } as never),
        node('use', 'sleep', {
          title: 'Use',
          inputs: [
            typed('n', 'integer', 'start', ['text']),
            typed('whole', 'integer', 'start', ['ratio']),
            typed('big', 'number', 'start', ['count']),
            typed('s', 'string', 'start', ['user']),
            typed('flag', 'boolean', 'start', ['tags']),
            typed('ints', 'array', 'start', ['tags'], 'integer'),
            typed('age', 'integer', 'start', ['user', 'age']),
            typed('obj', 'object', 'start', ['count']),
          ] as never,
        }),
        node('end', 'finish'),
      ],
      links: [link('start', 'use'), link('use', 'end')],
    };
    const problems = validateCanvas(canvas, typeOf).filter((p) => p.node_id === 'use');
    const at = (field: string) => problems.find((p) => p.field === `inputs.${field}`);
    expect(at('n')).toMatchObject({
      type: 1,
      level: 'warning',
      message: expect.stringMatching(
        /^'n' expects a whole number but Start\.text is text: it is converted when the node runs/,
      ),
    });
    expect(at('whole')).toMatchObject({ level: 'warning' });
    expect(at('ints')).toMatchObject({ level: 'warning' });
    expect(at('flag')).toMatchObject({
      message: expect.stringMatching(
        /'flag' expects true\/false but Start\.tags is an array of text, which cannot be converted/,
      ),
    });
    expect(at('flag')!.level).toBeUndefined();
    expect(at('obj')!.level).toBeUndefined();
    for (const fine of ['big', 's', 'age']) expect(at(fine)).toBeUndefined();
  });

  it('reports cycles and missing Start/End', () => {
    const problems = validateCanvas(
      { nodes: [node('a', 'sleep'), node('b', 'sleep')], links: [link('a', 'b'), link('b', 'a')] },
      typeOf,
    );
    expect(problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        'The workflow needs a Start node.',
        'The workflow needs an End node.',
        expect.stringMatching(/cycle: a -> b -> a|cycle: b -> a -> b/),
      ]),
    );
  });
});
