import { describe, expect, it } from 'vitest';
import { signUp } from '../agent.ts';
import { canvas, userSession, withStudioAndBrowser } from './browser.ts';

// Two members of a space with one workflow open in two browsers: each sees the other (avatar, selection, pointer),
// each other's edits arrive live and both canvases end the same; one tab saves the shared draft.
const env = withStudioAndBrowser();

describe('editing a workflow together', () => {
  it('shows who else is there and merges both people’s edits live', async () => {
    const ann = await userSession(env, { language: 'en-US', viewport: { width: 1400, height: 900 } });
    const bob = await signUp(env.studio.url, 'bob-live');
    const space = (await ann.api.post('/api/space/create', { name: 'Live team' })).space_id;
    await ann.api.post('/api/space/member/add', { space_id: space, user_ids: [bob.user.user_id] });
    const { workflow_id } = await ann.api.post('/api/workflow_api/create', { space_id: space, name: 'Together' });
    const bobContext = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await bobContext.addInitScript(() => localStorage.setItem('tessera.language', 'zh-CN'));
    await bobContext.request.post(`${env.studio.url}/api/passport/web/email/login`, {
      data: { email: bob.email, password: 'correct horse battery' },
    });
    const bobPage = await bobContext.newPage();
    const bobErrors: string[] = [];
    bobPage.on('pageerror', (e) => bobErrors.push(e.message));
    const url = `${env.studio.url}/workflows/${workflow_id}?space_id=${space}`;
    await ann.page.goto(url);
    await ann.page.getByTestId('workflow-editor').waitFor();
    await expect.poll(() => ann.page.getByTestId('live').getAttribute('data-status')).toBe('live');
    await bobPage.goto(url);
    await bobPage.getByTestId('workflow-editor').waitFor();

    // Each sees the other's avatar.
    await expect.poll(() => ann.page.getByTestId('presence').getByLabel('bob-live').count()).toBe(1);
    await expect.poll(() => bobPage.getByTestId('presence').locator('[data-user]').count()).toBe(1);

    // Ann adds a node; it appears on Bob's canvas.
    const annCanvas = canvas(ann.page);
    await annCanvas.fit();
    await ann.page.getByTestId('node-search').fill('text');
    await ann.page.getByTestId('add-node-text').click();
    const textId = (await ann.page.getByTestId('node-panel').getAttribute('data-node-id'))!;
    const bobCanvas = canvas(bobPage);
    await expect.poll(() => bobPage.locator(`[data-testid="canvas-node"][data-node-id="${textId}"]`).count()).toBe(1);

    // Ann's selection is drawn around the card on Bob's canvas, with her name; Bob's pointer on Ann's.
    await bobCanvas.fit();
    await expect
      .poll(() =>
        bobPage.locator(`[data-testid="canvas-node"][data-node-id="${textId}"] [data-testid="peer-selection"]`).count(),
      )
      .toBe(1);
    const box = (await bobPage.getByTestId('canvas').boundingBox())!;
    await bobPage.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
    await bobPage.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 3 + 10);
    await expect.poll(() => ann.page.getByTestId('peer-cursor').count()).toBe(1);
    expect(await ann.page.getByTestId('peer-cursor').textContent()).toBe('bob-live');

    // Bob renames the node while Ann moves on to another: Ann's canvas shows Bob's title.
    await bobCanvas.select(textId);
    await bobPage.getByTestId('node-title').fill('Greeting by Bob');
    await expect
      .poll(() => ann.page.locator(`[data-testid="canvas-node"][data-node-id="${textId}"]`).textContent())
      .toContain('Greeting by Bob');

    // One of them saves the shared draft: it holds both people's edits.
    const saved = async () => {
      const r = await ann.api.post('/api/workflow_api/canvas', { space_id: space, workflow_id });
      const c = JSON.parse(r.workflow.schema_json) as { nodes: { node_id: string; node_param: { title: string } }[] };
      return c.nodes.find((n) => n.node_id === textId)?.node_param.title;
    };
    await expect.poll(saved, { timeout: 15_000 }).toBe('Greeting by Bob');

    // Both add a node of the same type at the same moment: each keeps theirs, and both canvases hold both.
    await bobPage.getByTestId('node-search').fill('text');
    await annCanvas.fit();
    await Promise.all([ann.page.getByTestId('add-node-text').click(), bobPage.getByTestId('add-node-text').click()]);
    const ids = async (p: typeof bobPage) =>
      (
        await p
          .locator('[data-testid="canvas-node"]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id')))
      )
        .filter(Boolean)
        .sort((x, y) => String(x).localeCompare(String(y)))
        .join(',');
    await annCanvas.fit();
    await bobCanvas.fit();
    await expect.poll(() => ann.page.locator('[data-testid="canvas-node"]').count()).toBe(5);
    await expect.poll(() => bobPage.locator('[data-testid="canvas-node"]').count()).toBe(5);
    expect(await ids(ann.page)).toBe(await ids(bobPage));
    // Neither was asked to merge: the saves came from the one shared canvas.
    for (const p of [ann.page, bobPage])
      expect(await p.getByTestId('save-state').getAttribute('data-state')).not.toBe('conflict');

    // Bob leaves: his avatar goes from Ann's toolbar.
    await bobPage.close();
    await expect.poll(() => ann.page.getByTestId('presence').count()).toBe(0);
    expect(ann.errors).toEqual([]);
    expect(bobErrors).toEqual([]);
    await bobContext.close();
    await ann.context.close();
  });

  it('edits a bot together: the others’ avatars, the field each is in, and their edits as they type', async () => {
    const ann = await userSession(env, { language: 'zh-CN', viewport: { width: 1400, height: 900 } });
    const bob = await signUp(env.studio.url, 'bob-bot');
    const space = (await ann.api.post('/api/space/create', { name: 'Bot team' })).space_id;
    await ann.api.post('/api/space/member/add', { space_id: space, user_ids: [bob.user.user_id] });
    const { bot_id } = await ann.api.post('/api/draftbot/create', { space_id: space, name: 'Shared bot' });
    const bobContext = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await bobContext.request.post(`${env.studio.url}/api/passport/web/email/login`, {
      data: { email: bob.email, password: 'correct horse battery' },
    });
    const bobPage = await bobContext.newPage();
    const url = `${env.studio.url}/bots/${bot_id}?space_id=${space}`;
    await ann.page.goto(url);
    await ann.page.getByTestId('bot-editor').waitFor();
    await bobPage.goto(url);
    await bobPage.getByTestId('bot-editor').waitFor();
    await expect.poll(() => ann.page.getByTestId('presence').getByLabel('bob-bot').count()).toBe(1);

    // Bob is in the description: Ann sees it outlined in his colour; what he types appears on her page.
    await bobPage.getByTestId('bot-description').click();
    await expect.poll(() => ann.page.getByTestId('peer-fields').textContent()).toContain('bot-description');
    await bobPage.getByTestId('bot-description').fill('Answers questions about the garden');
    await expect
      .poll(() => ann.page.getByTestId('bot-description').inputValue())
      .toBe('Answers questions about the garden');
    // Ann renames it meanwhile: Bob sees the name, and the draft keeps both.
    await ann.page.getByTestId('bot-name').fill('Garden helper');
    await expect.poll(() => bobPage.getByTestId('bot-name').inputValue()).toBe('Garden helper');
    await expect
      .poll(
        async () => {
          const b = (await ann.api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
            .bot_info;
          return `${b.name}|${b.description}`;
        },
        { timeout: 15_000 },
      )
      .toBe('Garden helper|Answers questions about the garden');
    expect(ann.errors).toEqual([]);
    await bobContext.close();
    await ann.context.close();
  });
});
