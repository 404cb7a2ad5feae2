import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes, type FieldDecl, type NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';
import { PythonSandbox } from './python.ts';
import { CodeError, runJavaScript } from './sandbox.ts';
import { CodeSandboxService } from '../shared.ts';
import { fieldOf } from '@tessera/sdk';

const ConfigSchema = z.object({
  /** Upper bounds a node's own settings may not exceed. */
  maxTimeoutMs: z.number().int().positive().default(60_000),
  maxMemoryMb: z.number().int().positive().default(256),
  /** How much JSON `main` may return (a larger result fails the node before it reaches the studio). */
  maxOutputKb: z
    .number()
    .int()
    .positive()
    .max(64 * 1024)
    .default(1024),
});

const Settings = z.object({
  language: z.enum(['javascript', 'typescript', 'python']).default('javascript'),
  /** JavaScript/TypeScript: async function main({ params }) { ... }; Python: async def main(args): ... (args.params). */
  code: z.string().min(1, 'Write the code with a function named main.').max(200_000),
  timeout_ms: z.number().int().min(10).max(600_000).default(10_000),
  memory_mb: z.number().int().min(8).max(4096).default(64),
});

const TYPE_CHECK: Record<FieldDecl['type'], (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  array: Array.isArray,
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  file: (v) => typeof v === 'string' || (typeof v === 'object' && v !== null),
};

/** Checks the returned object against the declared outputs; names the field and the expected type. */
export function typedOutputs(result: unknown, declared: FieldDecl[]): Record<string, unknown> {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw new CodeError('main must return an object whose fields are the declared outputs.');
  const out: Record<string, unknown> = {};
  for (const f of declared) {
    const v = fieldOf(result, f.name);
    if (v === undefined || v === null) {
      out[f.name] = null;
      continue;
    }
    if (!TYPE_CHECK[f.type](v))
      throw new CodeError(
        `The output '${f.name}' should be ${f.type === 'integer' ? 'an integer' : `a${/^[aeiou]/.test(f.type) ? 'n' : ''} ${f.type}`}, but main returned ${JSON.stringify(v).slice(0, 60)}.`,
      );
    if (f.type === 'array' && f.items) {
      const bad = (v as unknown[]).findIndex((x) => x !== null && !TYPE_CHECK[f.items!](x));
      if (bad >= 0) throw new CodeError(`Item ${bad} of the output '${f.name}' should be ${f.items}.`);
    }
    out[f.name] = v;
  }
  return out;
}

export function codeNode(limits: z.output<typeof ConfigSchema>, python: PythonSandbox): NodeTypeDefinition {
  return {
    key: 'code',
    code: 5,
    category: 'utility',
    label: { 'en-US': 'Code', 'zh-CN': '代码' },
    description: {
      'en-US': 'Runs JavaScript, TypeScript or Python in a sandbox: a function named main gets the inputs as params.',
      'zh-CN': '在沙箱中运行 JavaScript、TypeScript 或 Python：名为 main 的函数以 params 接收输入。',
    },
    settings: Settings,
    async execute(ctx) {
      const s = ctx.settings as z.infer<typeof Settings>;
      const bounds = {
        timeoutMs: Math.min(s.timeout_ms, limits.maxTimeoutMs),
        memoryMb: Math.min(s.memory_mb, limits.maxMemoryMb),
        maxOutputBytes: limits.maxOutputKb * 1024,
      };
      const result = await ctx.span('code', { language: s.language }, () =>
        s.language === 'python'
          ? python.run(s.code, ctx.inputs, bounds, (line) => ctx.log(line), ctx.spaceId)
          : runJavaScript(s.code, ctx.inputs, bounds, s.language === 'typescript', (line) => ctx.log(line)),
      );
      return { outputs: typedOutputs(result, ctx.outputs) };
    },
  };
}

export default defineExtension({
  id: 'node-code',
  configSchema: ConfigSchema,
  register(ctx) {
    const python = new PythonSandbox();
    ctx.onDispose(() => python.stop());
    ctx.register(NodeTypes, codeNode(ctx.config, python));
    const limits = ctx.config;
    ctx.provide(CodeSandboxService, {
      run: (language, source, params, want = {}, spaceId) => {
        const bounds = {
          timeoutMs: Math.min(want.timeoutMs ?? 5000, limits.maxTimeoutMs),
          memoryMb: Math.min(want.memoryMb ?? 64, limits.maxMemoryMb),
          maxOutputBytes: limits.maxOutputKb * 1024,
        };
        return language === 'python'
          ? python.run(source, params, bounds, () => undefined, spaceId ?? '')
          : runJavaScript(source, params, bounds, language === 'typescript');
      },
    });
  },
});
