import { defineExtension } from '@tessera/sdk/server';
import { BotModeCode, BotModes } from '@tessera/ext-bots/shared';
import { WorkflowMode, WorkflowRunnerService } from '@tessera/workflow-sdk';
import { ChatflowSettings } from '../shared.ts';

/** The answer of a run whose End returned variables: one text field as it is, else the JSON. */
function answerOf(output: Record<string, unknown> | undefined): string {
  if (!output) return '';
  const values = Object.values(output);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  return JSON.stringify(output);
}

export default defineExtension({
  id: 'bot-mode-chatflow',
  register(ctx) {
    const runner = () => ctx.service(WorkflowRunnerService);
    ctx.register(BotModes, {
      key: 'chatflow',
      code: BotModeCode.Workflow,
      label: { 'en-US': 'Chat-flow', 'zh-CN': '对话流' },
      settings: ChatflowSettings,
      problems: (s) => ((s as ChatflowSettings).workflow_id ? [] : ['Choose the chat-flow that answers.']),
      describe: (s) => ({ workflow_info_list: (s as ChatflowSettings).workflow_id ? [{ id: (s as ChatflowSettings).workflow_id, name: (s as ChatflowSettings).workflow_name ?? '', description: '', icon_url: '' }] : [] }),
      async run(turn) {
        const s = turn.settings as ChatflowSettings;
        if (!s.workflow_id) throw new Error('The bot has no chat-flow: choose one in its settings.');
        const info = await runner().info(s.workflow_id, turn.spaceId);
        if (info.flow_mode !== WorkflowMode.ChatFlow) throw new Error(`"${info.name}" is a workflow, not a chat-flow: choose a chat-flow.`);
        // A published bot answers with the chat-flow's published version; the draft with its latest (or its draft).
        if (turn.version !== null && !info.latest_version) throw new Error(`The chat-flow "${info.name}" is not published.`);
        let streamed = '';
        const r = await runner().run({
          spaceId: turn.spaceId,
          userId: turn.userId,
          workflowId: info.workflow_id,
          version: info.latest_version ? undefined : 'draft',
          input: { USER_INPUT: turn.query, CONVERSATION_NAME: turn.conversationId, ...turn.customVariables },
          signal: turn.signal,
          botId: turn.botId,
          connectorId: turn.connectorId,
          connectorUid: turn.endUserId,
          onMessage: (m) => {
            streamed += m.content;
            turn.emit.delta(m.content);
          },
        });
        if (r.status === 'cancel') throw new Error('cancelled');
        if (r.status === 'interrupted') throw new Error(`The chat-flow "${info.name}" asks a question; questions in chat-flows are not answered in chats yet.`);
        if (r.status !== 'success') throw new Error(`The chat-flow "${info.name}" failed: ${r.error ?? 'unknown error'}`);
        return { answer: streamed || answerOf(r.output), usage: r.usage };
      },
    });
  },
});
