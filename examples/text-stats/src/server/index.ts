import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes, type NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';

const Settings = z.object({
  /** Words are runs of letters and digits (default) or anything between spaces. */
  words: z.enum(['letters', 'spaces']).default('letters'),
});

/** Counts the characters, words and lines of its input `text`. */
export const textStats: NodeTypeDefinition = {
  key: 'text_stats',
  code: 10100,
  category: 'utility',
  label: { 'en-US': 'Text stats', 'zh-CN': '文本统计' },
  description: {
    'en-US': 'Counts the characters, words and lines of a text.',
    'zh-CN': '统计文本的字符数、词数和行数。',
  },
  settings: Settings,
  outputsOf: () => [
    { name: 'chars', type: 'integer' },
    { name: 'words', type: 'integer' },
    { name: 'lines', type: 'integer' },
  ],
  validate: (node) =>
    node.node_param.inputs.some((i) => i.name === 'text')
      ? []
      : [{ type: 1, field: 'inputs', message: 'Give the node an input named text.' }],
  execute(ctx) {
    const s = ctx.settings as z.infer<typeof Settings>;
    const text = String(ctx.inputs.text ?? '');
    const words = text.split(s.words === 'letters' ? /[^\p{L}\p{N}]+/u : /\s+/).filter(Boolean).length;
    ctx.log(`counted ${text.length} characters`);
    return { outputs: { chars: [...text].length, words, lines: text === '' ? 0 : text.split('\n').length } };
  },
};

export default defineExtension({
  id: 'text-stats',
  register(ctx) {
    ctx.register(NodeTypes, textStats);
  },
});
