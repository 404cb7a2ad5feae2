import { describe, expect, it } from 'vitest';
import { Agent } from '../agent.ts';
import { canvas, choose, signedInContext, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('building a workflow in the browser', () => {
  it('builds Start, Code, If, Loop with Break, Question and End through the UI; runs it, answers the question; publishes, changes the draft, compares and reverts', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });
    // The API is used only to look at what the UI saved.
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;

    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows`);
    await page.getByTestId('workflow-create').click();
    await page.getByTestId('workflow-create-name').fill('Built by hand');
    await page.getByTestId('workflow-create-save').click();
    await page.getByTestId('workflow-editor').waitFor(); // a new workflow opens in the editor
    const workflowId = new URL(page.url()).pathname.split('/').pop()!;
    const draft = async () =>
      JSON.parse(
        (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id: workflowId })).workflow
          .schema_json,
      );
    const saved = () =>
      expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');

    const { START, END, fit, select, wire, add, deleteOnlyLink } = canvas(page);

    // Start: one integer input, n.
    await select(START);
    await page.getByTestId('output-0-name').fill('n');
    await choose(page, 'output-0-type', 'integer');

    // The link a new workflow has from Start to End goes: select it and delete it.
    await deleteOnlyLink();

    // Code: a list 1..n, logging as it goes.
    await select(START);
    const code = await add('code');
    await wire(START, 'default', code);
    await select(code);
    await choose(page, 'input-0-kind', 'Reference'); // the nearest upstream output: Start's n
    await expect.poll(() => page.getByTestId('input-0-ref').textContent()).toContain('Start · n (integer)');
    await page
      .getByTestId('code-editor')
      .fill(
        "async function main({ params }) {\n  console.log('n =', params.input);\n  return { result: Array.from({ length: params.input }, (_, i) => i + 1) };\n}\n",
      );
    await choose(page, 'output-0-type', 'array');

    // If: more than two items?
    const cond = await add('if');
    await wire(code, 'default', cond);
    await select(cond);
    await page.getByTestId('input-add').click();
    await expect.poll(() => page.getByTestId('input-0-ref').textContent()).toContain('Code · result (array)');
    await choose(page, 'if-left', 'input1');
    await choose(page, 'if-operator', 'length >');
    await page.getByTestId('if-right').fill('2');

    // Loop over the list; its body is a Break, added with the loop selected.
    const loop = await add('loop');
    await wire(cond, 'true', loop);
    await select(loop);
    await choose(page, 'input-0-kind', 'Reference');
    await choose(page, 'input-0-ref', 'Code · result (array)');
    const brk = await add('break');
    expect(await page.locator(`.react-flow__node[data-id="${brk}"]`).count()).toBe(1);

    // A question after the loop (added with If selected: next to it, not in the body), its text
    // completed from the outputs upstream.
    await select(cond);
    const question = await add('question');
    await wire(loop, 'default', question);
    await select(question);
    const text = page.getByTestId('question-text');
    await text.click();
    await text.pressSequentially('Go on with {{');
    await page.getByTestId('template-option').filter({ hasText: 'Code · result' }).click();
    await expect.poll(() => text.inputValue()).toBe('Go on with {{Code.result}}'); // shown by title, stored by id (below)
    await text.pressSequentially('?');

    // End: the answer; the else branch of If ends too.
    await wire(question, 'default', END);
    await wire(cond, 'false', END);
    await select(END);
    await page.getByTestId('input-add').click();
    await page.getByTestId('input-0-name').fill('answer');
    await expect.poll(() => page.getByTestId('input-0-ref').textContent()).toContain('USER_RESPONSE');

    // A comment note on the canvas.
    await page.getByTestId('add-note').click();
    await page.getByTestId('note-text').fill('Asks before it ends');

    await saved();
    const built = await draft();
    const byId = Object.fromEntries(built.nodes.map((n: { node_id: string }) => [n.node_id, n]));
    expect(byId[brk].parent_id).toBe(loop);
    expect(byId[question].parent_id).toBeUndefined();
    expect(byId[code].node_param.settings.code).toContain('console.log');
    expect(byId[question].node_param.settings.question).toBe('Go on with {{code.result}}?');
    expect(built.notes).toEqual([expect.objectContaining({ text: 'Asks before it ends' })]);
    expect(
      (await api.post('/api/workflow_api/validate_tree', { space_id: spaceId, workflow_id: workflowId })).errors,
    ).toEqual([]);
    await expect.poll(() => page.getByTestId('node-problem').count()).toBe(0);

    // Run it: every node's status on the canvas; the question answered inline.
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.getByTestId('test-run-toggle').click();
    await page.locator('input[data-testid="run-input-n"], [data-testid="run-input-n"] input').first().fill('3');
    await page.getByTestId('run-start').click();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('waiting');
    expect(await page.getByTestId('run-question').textContent()).toContain('Go on with [1,2,3]?');
    await page.getByTestId('run-answer').fill('yes');
    await page.getByTestId('run-answer-send').click();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('success');
    // The run's trace: the run, each node, the code call inside the Code node.
    await page.getByTestId('run-trace').locator('summary').click();
    await expect
      .poll(() => page.getByTestId('trace-span').allTextContents())
      .toEqual(
        expect.arrayContaining([
          expect.stringContaining('Built by hand'),
          expect.stringContaining('node Code'),
          expect.stringMatching(/^code\d+ ms$/),
        ]),
      );
    await page.getByTestId('trace-span').filter({ hasText: 'node Code' }).click();
    expect(await page.getByTestId('trace-span-attributes').textContent()).toContain('"node_type": "code"');
    await fit();
    for (const id of [START, code, cond, loop, brk, question, END]) {
      await expect
        .poll(() => page.locator(`[data-testid="canvas-node"][data-node-id="${id}"]`).getAttribute('data-run-status'))
        .toBe('3');
    }
    await select(code);
    expect(await page.getByTestId('node-result-outputs').textContent()).toMatch(/"result": \[\s*1,\s*2,\s*3\s*\]/);
    expect(await page.getByTestId('node-result-logs').textContent()).toBe('n = 3');
    await select(cond);
    expect(await page.getByTestId('node-result-branch').textContent()).toContain('true');
    await select(END);
    expect(await page.getByTestId('node-result-outputs').textContent()).toContain('"answer": "yes"');

    // Publish, change the draft, see the difference, revert.
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.getByTestId('versions-toggle').click();
    await page.getByTestId('publish-description').fill('built by hand');
    await page.getByTestId('publish').click();
    await page.getByTestId('version-row').filter({ hasText: 'v1.0.0' }).waitFor();
    await select(code);
    await page.getByTestId('node-title').fill('Make list');
    await saved();
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.getByTestId('version-row').filter({ hasText: 'v1.0.0' }).getByTestId('version-compare').click();
    await expect
      .poll(() => page.getByTestId('diff-changed').allTextContents())
      .toEqual(['~ Node “Make list” changed: title']);
    await page.locator('.arco-modal-close-icon').click();
    await page.getByTestId('version-row').filter({ hasText: 'v1.0.0' }).getByTestId('version-revert').click();
    await page.getByTestId('version-revert-confirm').click();
    await page.getByText('The draft is that version again').waitFor();
    expect((await draft()).nodes.find((n: { node_id: string }) => n.node_id === code).node_param.title).toBe('Code');
    await context.close();
  });
});
