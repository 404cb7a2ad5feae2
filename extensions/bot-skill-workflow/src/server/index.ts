import { defineExtension } from '@tessera/sdk/server';
import { BotSkills, type BotTool } from '@tessera/ext-bots/shared';
import { WorkflowRunnerService, zodOf, type WorkflowSummary } from '@tessera/workflow-sdk';
import { z } from 'zod';
import { WorkflowSkillSettings } from '../shared.ts';

/** The name the model calls a workflow by: its name in letters, digits and _, else its id. */
export function toolName(w: { name: string; workflow_id: string }, taken: Set<string>): string {
  let base = w.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  if (!/^[A-Za-z_]/.test(base)) base = `workflow_${base || w.workflow_id}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

export default defineExtension({
  id: 'bot-skill-workflow',
  register(ctx) {
    const runner = () => ctx.service(WorkflowRunnerService);
    ctx.register(BotSkills, {
      key: 'workflows',
      label: { 'en-US': 'Workflows', 'zh-CN': '工作流' },
      settings: WorkflowSkillSettings,
      async contribute(turn) {
        const s = turn.settings as WorkflowSkillSettings;
        const taken = new Set<string>();
        const tools: BotTool[] = [];
        for (const item of s.workflows) {
          let info: WorkflowSummary;
          try {
            info = await runner().info(item.workflow_id, turn.spaceId);
          } catch {
            ctx.logger.warn(
              `bot ${turn.botId}: its workflow ${item.workflow_id} no longer exists; the tool is left out`,
            );
            continue;
          }
          // A published bot runs published workflows; the draft (debug chat) runs a workflow's draft until it is published.
          const version = info.latest_version ? undefined : turn.version === null ? 'draft' : null;
          if (version === null) continue;
          tools.push({
            name: toolName(info, taken),
            description: (info.description || `Runs the workflow "${info.name}".`).slice(0, 1000),
            parameters: z.toJSONSchema(zodOf(info.inputs)) as Record<string, unknown>,
            source: { kind: 'workflow', id: info.workflow_id },
            async execute(args, call) {
              const r = await runner().run({
                spaceId: turn.spaceId,
                userId: turn.userId,
                workflowId: info.workflow_id,
                version,
                input: args,
                signal: call.signal,
                botId: turn.botId,
                connectorId: turn.connectorId,
                connectorUid: turn.endUserId,
                // The debug chat's calls may be answered by mock data bound to the bot's debugging.
                ...(turn.version === null ? { scene: { scene: 10000, caller_id: turn.botId } } : {}),
              });
              if (r.status === 'success') return r.output ?? {};
              if (r.status === 'interrupted')
                throw new Error(`The workflow "${info.name}" asks a question, which a tool cannot answer.`);
              throw new Error(
                `The workflow "${info.name}" ${r.status === 'cancel' ? 'was cancelled' : `failed: ${r.error ?? 'unknown error'}`}`,
              );
            },
          });
        }
        return { tools };
      },
      async describe(settings, spaceId) {
        const s = WorkflowSkillSettings.parse(settings);
        const list = [];
        for (const w of s.workflows) {
          const info = await runner()
            .info(w.workflow_id, spaceId)
            .catch(() => undefined);
          if (info) list.push({ id: info.workflow_id, name: info.name, description: info.description, icon_url: '' });
        }
        return { workflow_info_list: list };
      },
      fromOpenApi(body) {
        const ids = (body.workflow_id_list as { ids?: { id: string }[] } | undefined)?.ids;
        return ids ? { workflows: ids.filter((i) => i?.id).map((i) => ({ workflow_id: String(i.id) })) } : undefined;
      },
    });
  },
});
