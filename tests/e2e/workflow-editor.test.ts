import { describe, expect, it } from 'vitest';
import { Agent } from '../agent.ts';
import { greetingCanvas, link, node, questionCanvas, ref } from '../workflow-kit.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('the workflow editor in the browser', () => {
  it('adds and wires a node, saves the draft by itself, and merges a save made over a teammate’s, asking only where both changed the same field', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Wired' });
    const draft = async () =>
      JSON.parse((await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json);

    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows`);
    await page.getByTestId('workflow-name').getByText('Wired').click();
    await page.getByTestId('workflow-editor').waitFor();
    await expect.poll(() => page.getByTestId('canvas-node').count()).toBe(2); // Start and End

    // Add a Text node from the catalogue (search), rename it in its panel.
    await page.getByTestId('node-search').fill('text');
    await page.getByTestId('add-node-text').click();
    const panel = page.getByTestId('node-panel');
    await panel.waitFor();
    await page.getByTestId('node-title').fill('Greeting');
    // Saved, then checked by the server: a node that nothing reaches is a problem shown on it.
    await expect.poll(() => page.getByTestId('node-problem').allTextContents(), { timeout: 10_000 }).not.toEqual([]);
    // Only what is in view is rendered: fit the view to see all three.
    await page.locator('.react-flow__controls-fitview').click();
    await expect.poll(() => page.getByTestId('canvas-node').count()).toBe(3);

    // Wire Start -> Greeting -> End by dragging from output ports to the next node's input.
    const textId = (await panel.getAttribute('data-node-id'))!;
    const nodes = (await draft()).nodes as { node_id: string; type: string }[];
    const startId = nodes.find((n) => n.type === '1' || n.type === 'start')!.node_id;
    const endId = nodes.find((n) => n.type === '2' || n.type === 'end')!.node_id;
    const wire = async (from: string, to: string) => {
      await page
        .getByTestId(`port-${from}-default`)
        .dragTo(page.locator(`.react-flow__node[data-id="${to}"] .react-flow__handle.target`));
    };
    await wire(startId, textId);
    await wire(textId, endId);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3); // and the Start -> End link of a new workflow

    // An input referencing Start's output, picked from the upstream outputs.
    await page.getByTestId(`port-${startId}-default`).waitFor();
    await page.locator(`.react-flow__node[data-id="${textId}"]`).click();
    await page.getByTestId('input-add').click();
    await expect.poll(() => page.getByTestId('input-0-name').inputValue()).toBe('input1');

    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    const saved = await draft();
    expect(saved.nodes.find((n: { node_id: string }) => n.node_id === textId).node_param.title).toBe('Greeting');
    expect(saved.links).toEqual(
      expect.arrayContaining([
        { from_node_id: startId, to_node_id: textId },
        { from_node_id: textId, to_node_id: endId },
      ]),
    );

    // Someone saves the draft elsewhere (the End node renamed, the text node's title changed); the next save here
    // is refused, merged with theirs: the End's new title is kept, the title both changed is the user's to pick.
    const meta = (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow;
    const theirs = JSON.parse(meta.schema_json);
    const nodeOf = (c: { nodes: { node_id: string; node_param: { title?: string } }[] }, id: string) =>
      c.nodes.find((n) => n.node_id === id)!;
    nodeOf(theirs, textId).node_param.title = 'Their greeting';
    nodeOf(theirs, endId).node_param.title = 'Finish';
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: theirs,
      base_revision: meta.revision,
    });
    await page.getByTestId('node-title').fill('My greeting');
    await page.getByText('Someone else saved this draft').waitFor();
    await expect
      .poll(() => page.getByTestId('merge-conflict').allTextContents())
      .toEqual(['Node “Their greeting” › titleYoursMy greetingSaved meanwhileTheir greeting']);
    await page.getByTestId('merge-save').click();
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    const merged = await draft();
    expect(nodeOf(merged, textId).node_param.title).toBe('My greeting');
    expect(nodeOf(merged, endId).node_param.title).toBe('Finish');
    // Changes that do not clash merge by themselves.
    const again = (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow;
    const other = JSON.parse(again.schema_json);
    nodeOf(other, endId).node_param.title = 'Done';
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: other,
      base_revision: again.revision,
    });
    await page.getByTestId('node-title').fill('Our greeting');
    await page.getByText('Merged with the changes saved meanwhile').waitFor();
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    expect(nodeOf(await draft(), textId).node_param.title).toBe('Our greeting');
    expect(nodeOf(await draft(), endId).node_param.title).toBe('Done');

    // Deleting the node removes its links too.
    await page.getByTestId('node-delete').click();
    await expect.poll(() => page.getByTestId('canvas-node').count()).toBe(2);
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    expect((await draft()).links).toEqual([{ from_node_id: startId, to_node_id: endId }]);
    await context.close();
  });

  it("test-runs the draft: inputs from Start, each node's status on the canvas, results per node, a question answered inline", async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const canvas = greetingCanvas();
    canvas.nodes[5] = node('end', '2', {
      title: 'End',
      inputs: [ref('message', 'agg', ['text'])],
      settings: { terminate_plan: 'use_answer_content', answer: '{{message}}' },
    });
    canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 260, y: (i % 2) * 140 } }));
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Greeter' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });

    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await page.getByTestId('test-run-toggle').click();
    await page.getByTestId('run-input-name').fill('Ada');
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.getByTestId('run-status').getAttribute('data-status')).toBe('success');
    expect(await page.getByTestId('run-answer-text').textContent()).toBe('Hello, Ada!');
    await page.locator('.react-flow__controls-fitview').click();
    const status = (id: string) =>
      page.locator(`[data-testid="canvas-node"][data-node-id="${id}"]`).getAttribute('data-run-status');
    await expect.poll(() => status('greet')).toBe('3');
    expect(await status('anon')).toBe(''); // the branch not taken did not run
    await page.locator('.react-flow__node[data-id="greet"]').click();
    await expect.poll(() => page.getByTestId('node-result-outputs').textContent()).toContain('Hello, Ada!');
    // Single-node debug: the node alone, with inputs typed here.
    const debug = page.getByTestId('node-debug');
    await debug.locator('summary').click();
    await debug.getByTestId('debug-input-name').fill('Lin');
    await debug.getByTestId('debug-run').click();
    await expect.poll(() => debug.getByTestId('node-result-outputs').textContent()).toContain('Hello, Lin!');

    // A question: the run waits, the answer is given inline, the run ends.
    const asked = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Asker' });
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id: asked.workflow_id,
      schema: questionCanvas(),
    });
    await page.goto(`${env.studio.url}/workflows/${asked.workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('test-run-toggle').click();
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.getByTestId('run-status').getAttribute('data-status')).toBe('waiting');
    expect(await page.getByTestId('run-question').textContent()).toContain('What is your name?');
    await page.getByTestId('run-answer').fill('Grace');
    await page.getByTestId('run-answer-send').click();
    await expect.poll(() => page.getByTestId('run-status').getAttribute('data-status')).toBe('success');
    await expect
      .poll(() => page.getByTestId('run-history-item').allTextContents())
      .toEqual([expect.stringContaining('Succeeded Test run')]);
    // An End that returns variables (no answer text): what it returned shows under "Succeeded".
    expect(await page.getByTestId('run-output').textContent()).toBe('answer: Grace');

    // Reopen a past run of the first workflow: its nodes' results come back on the canvas.
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('test-run-toggle').click();
    expect(await status('greet')).toBe('');
    await page.getByTestId('run-history-item').filter({ hasText: 'Test run' }).click();
    await expect.poll(() => status('greet')).toBe('3');
    expect(await page.getByTestId('run-answer-text').textContent()).toContain('Hello, Ada!');
    await expect.poll(() => page.getByTestId('run-history-item').filter({ hasText: 'Node debug' }).count()).toBe(1);
    await context.close();
  });

  it('publishes, shows what the draft changes against a version, and reverts to it', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const canvas = greetingCanvas();
    canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 260, y: (i % 2) * 140 } }));
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Versioned' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });

    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    // Untested drafts are published only when the user says so.
    await page.getByTestId('versions-toggle').click();
    await expect.poll(() => page.getByTestId('publish').isDisabled()).toBe(true);
    await page.getByTestId('test-run-toggle').click();
    await page.getByTestId('run-input-name').fill('Ada');
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.getByTestId('run-status').getAttribute('data-status')).toBe('success');
    await page.getByTestId('versions-toggle').click();
    await expect.poll(() => page.getByTestId('publish-version').inputValue()).toBe('v1.0.0');
    await page.getByTestId('publish-description').fill('first release');
    await page.getByTestId('publish').click();
    await page.getByTestId('version-row').filter({ hasText: 'v1.0.0' }).waitFor();
    await expect.poll(() => page.getByTestId('publish-version').inputValue()).toBe('v1.0.1');

    // Change the draft: rename a node and remove another.
    await page.locator('.react-flow__controls-fitview').click();
    await page.locator('.react-flow__node[data-id="greet"]').click();
    await page.getByTestId('node-title').fill('Welcome');
    await page.locator('.react-flow__node[data-id="anon"]').click();
    await page.getByTestId('node-delete').click();
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.getByTestId('version-row').filter({ hasText: 'v1.0.0' }).getByTestId('version-compare').click();
    await expect
      .poll(() => page.getByTestId('diff-changed').allTextContents())
      .toEqual(['~ Node “Welcome” changed: title']);
    expect(await page.getByTestId('diff-removed').allTextContents()).toEqual(['− Node “Anonymous” removed']);
    expect((await page.getByTestId('diff-link-removed').allTextContents()).sort()).toEqual([
      '− Link Anonymous → Pick removed',
      '− Link Has name → Anonymous removed',
    ]);
    await page.locator('.arco-modal-close-icon').click();

    // Revert: the canvas is v1.0.0 again.
    await page.getByTestId('version-row').filter({ hasText: 'v1.0.0' }).getByTestId('version-revert').click();
    await page.getByTestId('version-revert-confirm').click();
    await page.getByText('The draft is that version again').waitFor();
    await expect.poll(() => page.locator('[data-testid="canvas-node"][data-node-id="anon"]').count()).toBe(1);
    const draft = JSON.parse(
      (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json,
    );
    expect(draft.nodes.find((n: { node_id: string }) => n.node_id === 'greet').node_param.title).toBe('Greet');
    await context.close();
  });

  it('copies and pastes nodes, undoes and redoes, and tidies the layout', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const canvas = greetingCanvas();
    canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: (5 - i) * 260, y: 0 } })); // right to left
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Editing' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    const draft = async () =>
      JSON.parse((await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json);
    const saved = () =>
      expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
    const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await page.locator('.react-flow__node[data-id="greet"]').click();
    await page.keyboard.press(`${mod}+c`);
    await page.keyboard.press(`${mod}+v`);
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state')).not.toBe('saved');
    await saved();
    const pasted = (await draft()).nodes.find((n: { node_id: string }) => n.node_id === 'greet_2');
    expect(pasted.node_param.title).toBe('Greet');
    expect(pasted.node_param.inputs[0].value).toEqual({ kind: 'ref', node_id: 'start', path: ['name'] });

    await page.getByTestId('undo').click();
    await saved();
    expect((await draft()).nodes.map((n: { node_id: string }) => n.node_id)).not.toContain('greet_2');
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.keyboard.press(`${mod}+Shift+z`);
    await saved();
    expect((await draft()).nodes.map((n: { node_id: string }) => n.node_id)).toContain('greet_2');

    // A title typed and undone at once (before the panel hands it to the canvas): both the field and
    // the card go back, and redo brings the new title again.
    await page.locator('.react-flow__node[data-id="greet"]').click();
    await page.getByTestId('node-title').fill('Say hello');
    await page.getByTestId('undo').click();
    await expect.poll(() => page.getByTestId('node-title').inputValue()).toBe('Greet');
    await expect
      .poll(() => page.locator('[data-testid="canvas-node"][data-node-id="greet"] strong').textContent())
      .toBe('Greet');
    await page.getByTestId('redo').click();
    await expect.poll(() => page.getByTestId('node-title').inputValue()).toBe('Say hello');
    await expect
      .poll(() => page.locator('[data-testid="canvas-node"][data-node-id="greet"] strong').textContent())
      .toBe('Say hello');
    await saved();
    expect((await draft()).nodes.find((n: { node_id: string }) => n.node_id === 'greet').node_param.title).toBe(
      'Say hello',
    );

    await page.getByTestId('auto-layout').click();
    await saved();
    const x = Object.fromEntries(
      (await draft()).nodes.map((n: { node_id: string; layout: { x: number } }) => [n.node_id, n.layout.x]),
    );
    expect(x.start).toBeLessThan(x.if);
    expect(x.if).toBeLessThan(x.agg);
    expect(x.agg).toBeLessThan(x.end);
    await context.close();
  });

  it('moves a node dropped onto a loop into its body, and draws the body inside the loop', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'zh-CN',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const at = (n: ReturnType<typeof node>, x: number, y: number) => Object.assign(n, { layout: { x, y } });
    const canvas = {
      nodes: [
        at(node('start', '1', { outputs: [{ name: 'items', type: 'array' }] }), 0, 0),
        at(
          node('loop', '21', { inputs: [ref('items', 'start', ['items'], 'array')], settings: { loop_type: 'array' } }),
          300,
          0,
        ),
        at(
          node('shout', '15', { title: 'Shout', inputs: [], settings: { mode: 'concat', template: 'hey' } }),
          300,
          400,
        ),
        at(node('end', '2'), 900, 0),
      ],
      links: [link('start', 'loop'), link('loop', 'end'), link('start', 'shout')],
    };
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Body' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    expect(await page.getByTestId('container-hint').textContent()).toContain('循环体');
    const from = (await page.locator('[data-testid="canvas-node"][data-node-id="shout"] strong').boundingBox())!;
    const loop = (await page.locator('[data-testid="canvas-node"][data-node-id="loop"]').boundingBox())!;
    await page.mouse.move(from.x + 5, from.y + 5);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(
        from.x + 5 + ((loop.x + loop.width / 3 - from.x) * i) / 10,
        from.y + 5 + ((loop.y + loop.height / 2 - from.y) * i) / 10,
      );
    await page.mouse.up();
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    const saved = JSON.parse(
      (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json,
    );
    const shout = saved.nodes.find((n: { node_id: string }) => n.node_id === 'shout');
    expect(shout.parent_id).toBe('loop');
    expect(saved.links).toEqual([link('start', 'loop'), link('loop', 'end')]); // its link from Start, now across levels, is gone
    // Drawn inside the loop.
    const inside = (await page.locator('[data-testid="canvas-node"][data-node-id="shout"]').boundingBox())!;
    const box = (await page.locator('[data-testid="canvas-node"][data-node-id="loop"]').boundingBox())!;
    expect(inside.x).toBeGreaterThan(box.x);
    expect(inside.y + inside.height).toBeLessThanOrEqual(box.y + box.height + 1);
    await context.close();
  });

  it('reconnects a link by dragging its end, and adds a node dragged from the catalogue into a loop', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const at = (n: ReturnType<typeof node>, x: number, y: number) => Object.assign(n, { layout: { x, y } });
    const canvas = {
      nodes: [
        at(node('start', '1', { outputs: [{ name: 'items', type: 'array' }] }), 0, 0),
        at(
          node('loop', '21', { inputs: [ref('items', 'start', ['items'], 'array')], settings: { loop_type: 'array' } }),
          300,
          0,
        ),
        at(node('shout', '15', { title: 'Shout', settings: { mode: 'concat', template: 'hey' } }), 300, 400),
        at(node('end', '2'), 900, 0),
      ],
      links: [link('start', 'loop'), link('loop', 'shout')],
    };
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Rewire' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    const draft = async () =>
      JSON.parse((await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json);
    const saved = () =>
      expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();

    // Drag the end of the Loop -> Shout link from Shout to End. The end's grip is a circle around the
    // link's end: grab it just left of Shout's input.
    await page.locator('.react-flow__controls-fitview').click();
    const grip = (await page
      .locator('.react-flow__edge[data-id="loop:default->shout"] .react-flow__edgeupdater-target')
      .boundingBox())!;
    const to = (await page.locator('.react-flow__node[data-id="end"] .react-flow__handle.target').boundingBox())!;
    await page.mouse.move(grip.x + 3, grip.y + grip.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(
        grip.x + 3 + ((to.x + to.width / 2 - grip.x - 3) * i) / 10,
        grip.y + grip.height / 2 + ((to.y + to.height / 2 - grip.y - grip.height / 2) * i) / 10,
      );
    await page.mouse.up();
    await saved();
    expect((await draft()).links).toEqual([link('start', 'loop'), link('loop', 'end')]);

    // A Text dragged from the catalogue and dropped on the loop goes into its body.
    const loop = (await page.locator('[data-testid="canvas-node"][data-node-id="loop"]').boundingBox())!;
    const pane = (await page.getByTestId('canvas').boundingBox())!;
    await page.getByTestId('add-node-text').dragTo(page.getByTestId('canvas'), {
      targetPosition: { x: loop.x + loop.width / 2 - pane.x, y: loop.y + loop.height / 2 - pane.y },
    });
    await saved();
    const text = (await draft()).nodes.find((n: { node_id: string }) => n.node_id === 'text');
    expect(text.parent_id).toBe('loop');
    await context.close();
  });

  it('opens a run of the open API from its debug link: node results on the canvas, the output and the trace', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Linked run' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: greetingCanvas() });
    await api.post('/api/workflow_api/publish', {
      space_id: spaceId,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    const pat = await api.post('/api/permission_api/pat/create', {
      name: 'link',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: spaceId, permissions: ['workflow.run'] }],
    });
    const res = await fetch(`${env.studio.url}/v1/workflow/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workflow_id, parameters: { name: 'Link' } }),
    });
    const run = await res.json();
    expect(run.debug_url).toMatch(
      new RegExp(`/workflows/${workflow_id}\\?space_id=${spaceId}&execute_id=${run.execute_id}$`),
    );

    const page = await context.newPage();
    // The link names the public URL (localhost); the browser here signed in on the studio's own address.
    const link = new URL(run.debug_url);
    await page.goto(`${env.studio.url}${link.pathname}${link.search}`);
    await page.getByTestId('workflow-editor').waitFor();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('success');
    await expect.poll(() => page.getByTestId('run-answer-text').textContent()).toContain('Hello, Link!');
    await page.locator('.react-flow__controls-fitview').click();
    await expect
      .poll(async () => (await page.getByTestId('canvas-node-status').allTextContents()).length)
      .toBeGreaterThan(2);
    await page.getByTestId('run-trace').locator('summary').click();
    await expect.poll(() => page.getByTestId('trace-span').count()).toBeGreaterThan(1);
    await context.close();
  });

  it('draws the links of a large canvas in one layer, and a click there selects a link to delete it', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Large' });
    // Start, 160 Text nodes in a chain in columns of 20, End: 161 links.
    const texts = Array.from({ length: 160 }, (_, i) => ({
      ...node(`t${i}`, '15', {
        title: `Text ${i}`,
        inputs: [ref('q', 'start', ['q'])],
        outputs: [{ name: 'output', type: 'string' }],
        settings: { mode: 'concat', template: `{{q}} ${i}` },
      }),
      layout: { x: 260 * (1 + Math.floor(i / 20)), y: 110 * (i % 20) },
    }));
    const links = [link('start', 't0'), ...texts.slice(1).map((t, i) => link(`t${i}`, t.node_id)), link('t159', 'end')];
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'q', type: 'string' }] }),
          ...texts,
          { ...node('end', '2'), layout: { x: 260 * 10, y: 0 } },
        ],
        links,
      },
    });
    const count = async () =>
      JSON.parse((await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json)
        .links.length;
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    const layer = page.getByTestId('link-layer');
    await expect.poll(async () => Number(await layer.getAttribute('data-links')), { timeout: 10_000 }).toBe(161);
    expect(await page.locator('.react-flow__edge').count()).toBe(0);
    // A click on the middle of the link t39 -> t40 (between two columns) selects it: the canvas library takes it over.
    const point = await page.evaluate(() => {
      const path = document.querySelector(
        '[data-testid="link-layer"] .hits path[data-id="t39:default->t40"]',
      ) as SVGPathElement;
      const p = path.getPointAtLength(path.getTotalLength() / 2);
      const m = path.getScreenCTM()!;
      return { x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f };
    });
    await page.mouse.click(point.x, point.y);
    await expect.poll(() => page.locator('.react-flow__edge.selected').count()).toBe(1);
    expect(await layer.getAttribute('data-links')).toBe('160');
    await page.keyboard.press('Delete');
    await expect.poll(count, { timeout: 10_000 }).toBe(160);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(0);
    await context.close();
  });
});
