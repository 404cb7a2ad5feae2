import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes, type NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';

const Settings = z.object({
  workflow_id: z.string().min(1, 'Choose the workflow to run.'),
  /** 'draft', a published version (v1.2.0), or empty for the latest published version. */
  version: z.string().optional(),
});

interface ChildMarker {
  child_execute_id: string;
  child_event_id: string;
}

export const subWorkflow: NodeTypeDefinition = {
  key: 'sub_workflow',
  code: 9,
  category: 'basic',
  label: { 'en-US': 'Workflow', 'zh-CN': '工作流' },
  description: {
    'en-US': 'Runs another workflow of the space with these inputs; returns its outputs.',
    'zh-CN': '用这些输入运行空间中的另一个工作流，返回其输出。',
  },
  settings: Settings,
  async execute(ctx) {
    const s = ctx.settings as z.infer<typeof Settings>;
    const marker = ctx.interrupted?.data as Partial<ChildMarker> | undefined;
    const result =
      ctx.resume !== undefined && marker?.child_execute_id
        ? await ctx.runWorkflow({
            workflow_id: s.workflow_id,
            input: {},
            resume: { execute_id: marker.child_execute_id, event_id: marker.child_event_id!, data: ctx.resume },
          })
        : await ctx.runWorkflow({ workflow_id: s.workflow_id, version: s.version, input: ctx.inputs });
    if (result.status === 'interrupted') {
      // The child's question becomes this run's question; the answer is passed down on resume.
      return ctx.interrupt({
        type: result.interrupt.type,
        data: { ...result.interrupt.data, child_execute_id: result.execute_id, child_event_id: result.event_id },
      });
    }
    return { outputs: result.output };
  },
};

export default defineExtension({
  id: 'node-subworkflow',
  register(ctx) {
    ctx.register(NodeTypes, subWorkflow);
  },
});
