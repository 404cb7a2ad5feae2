/** Small builders for canvases in tests (the shape the studio saves). */
export const node = (node_id: string, type: string, param: Record<string, unknown> = {}) => ({
  node_id,
  type,
  node_param: { inputs: [], outputs: [], settings: {}, ...param },
  layout: { x: 0, y: 0 },
});
export const ref = (name: string, node_id: string, path: string[] = [], type = 'string') => ({
  name,
  type,
  value: { kind: 'ref', node_id, path },
});
export const lit = (name: string, value: unknown, type = 'string') => ({
  name,
  type,
  value: { kind: 'literal', value },
});
let names = 0;
/** A name no other workflow of the space has (names are unique in a space): "loop 7". */
export const unique = (base: string) => `${base} ${++names}`;
export const link = (from: string, to: string, branch?: string) => ({
  from_node_id: from,
  to_node_id: to,
  ...(branch ? { if_node_branch: branch } : {}),
});

/** Start(name) -> If(name empty?) -> Text greet / Text anon -> End(message via aggregator). */
export function greetingCanvas() {
  return {
    nodes: [
      node('start', '1', { title: 'Start', outputs: [{ name: 'name', type: 'string' }] }),
      node('if', '8', {
        title: 'Has name',
        inputs: [ref('name', 'start', ['name'])],
        settings: { branches: [{ logic: 1, conditions: [{ left: 'name', operator: 10 }] }] },
      }),
      node('greet', '15', {
        title: 'Greet',
        inputs: [ref('name', 'start', ['name'])],
        settings: { mode: 'concat', template: 'Hello, {{name}}!' },
      }),
      node('anon', '15', { title: 'Anonymous', settings: { mode: 'concat', template: 'Hello, stranger!' } }),
      node('agg', '32', {
        title: 'Pick',
        inputs: [ref('a', 'greet', ['output']), ref('b', 'anon', ['output'])],
        settings: { groups: [{ name: 'text', variables: ['a', 'b'] }] },
      }),
      node('end', '2', { title: 'End', inputs: [ref('message', 'agg', ['text'])] }),
    ],
    links: [
      link('start', 'if'),
      link('if', 'greet', 'true'),
      link('if', 'anon', 'false'),
      link('greet', 'agg'),
      link('anon', 'agg'),
      link('agg', 'end'),
    ],
  };
}

/** Start -> Question (free text) -> End(answer). */
export function questionCanvas() {
  return {
    nodes: [
      node('start', '1', { title: 'Start', outputs: [] }),
      node('q', '18', { title: 'Ask', settings: { question: 'What is your name?', answer_type: 'text' } }),
      node('end', '2', { title: 'End', inputs: [ref('answer', 'q', ['USER_RESPONSE'])] }),
    ],
    links: [link('start', 'q'), link('q', 'end')],
  };
}

/** A chat-flow: Start(USER_INPUT) -> Text "You said: ..." -> End answering with it. */
export function echoChatflowCanvas() {
  return {
    nodes: [
      node('start', '1', {
        title: 'Start',
        outputs: [
          { name: 'USER_INPUT', type: 'string', required: true },
          { name: 'CONVERSATION_NAME', type: 'string' },
        ],
      }),
      node('text', '15', {
        title: 'Echo',
        inputs: [ref('q', 'start', ['USER_INPUT'])],
        settings: { mode: 'concat', template: 'You said: {{q}}' },
      }),
      node('end', '2', {
        title: 'End',
        inputs: [ref('out', 'text', ['output'])],
        settings: { terminate_plan: 'use_answer_content', answer: '{{out}}' },
      }),
    ],
    links: [link('start', 'text'), link('text', 'end')],
  };
}

/**
 * A user, a space, a published 5-node flow (Start, If, Text, Text, End) and a token that runs it: the
 * request `POST /v1/workflow/run` answers (the engine benchmark's load, the run path's budget test).
 */
export async function publishedFiveNodeFlow(base: string): Promise<{
  url: string;
  body: string;
  headers: Record<string, string>;
  owner: import('./agent.ts').Agent;
  space: string;
}> {
  const { Agent } = await import('./agent.ts');
  const user = new Agent(base);
  await user.post('/api/passport/web/email/register/v2', {
    email: `flow-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'correct horse battery',
  });
  const space = (await user.post('/api/space/create', { name: 'Five nodes' })).space_id;
  const { workflow_id } = await user.post('/api/workflow_api/create', { space_id: space, name: 'five nodes' });
  const canvas = greetingCanvas();
  canvas.nodes = [
    ...canvas.nodes.filter((n) => n.node_id !== 'agg' && n.node_id !== 'end'),
    node('end', '2', { title: 'End', inputs: [ref('message', 'greet', ['output'])] }),
  ];
  canvas.links = [
    link('start', 'if'),
    link('if', 'greet', 'true'),
    link('if', 'anon', 'false'),
    link('greet', 'end'),
    link('anon', 'end'),
  ];
  await user.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: canvas });
  await user.post('/api/workflow_api/publish', {
    space_id: space,
    workflow_id,
    workflow_version: 'v1.0.0',
    force: true,
  });
  const pat = await user.post('/api/permission_api/pat/create', {
    name: 'runs',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
  });
  return {
    url: `${base}/v1/workflow/run`,
    body: JSON.stringify({ workflow_id, parameters: { name: 'Bench' } }),
    headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
    owner: user,
    space,
  };
}
