// Prompts for other extensions and pages: the shape of a prompt's content, and a service that resolves and
// renders a library prompt by key and label (or version).
import { defineRegistryPoint, defineService } from '@tessera/sdk';
import { z } from 'zod';

export const Message = z.object({
  /** placeholder: its content names a variable whose value is a list of messages, put in its place. */
  role: z.enum(['system', 'user', 'assistant', 'placeholder']),
  content: z.string().max(100_000),
});
export type PromptMessage = z.infer<typeof Message>;

export const PromptDetail = z.object({
  prompt_template: z
    .object({
      /** normal: {{name}} replaced; jinja2: Liquid templates (loops, conditions), close to Jinja. */
      template_type: z.enum(['normal', 'jinja2']).default('normal'),
      messages: z.array(Message).max(100).default([]),
      variable_defs: z
        .array(
          z.object({
            key: z
              .string()
              .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A variable name has letters, digits and _ (not first).'),
            desc: z.string().max(500).default(''),
            type: z.enum(['string', 'placeholder']).default('string'),
          }),
        )
        .max(100)
        .default([]),
    })
    .default({ template_type: 'normal', messages: [], variable_defs: [] }),
  model_config: z
    .object({
      model_id: z.string().max(32).optional(),
      temperature: z.number().min(0).max(2).optional(),
      max_tokens: z.number().int().min(1).max(1_000_000).optional(),
      top_p: z.number().min(0).max(1).optional(),
    })
    .default({}),
  tools: z
    .array(
      z.object({
        type: z.literal('function').default('function'),
        function: z.object({
          name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/),
          description: z.string().max(1000).default(''),
          parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
        }),
      }),
    )
    .max(50)
    .default([]),
});
export type PromptDetail = z.infer<typeof PromptDetail>;

export interface ResolvedPrompt {
  prompt_id: string;
  prompt_key: string;
  version: string;
  detail: PromptDetail;
}

/**
 * Which version of a prompt to serve: the version given, else a label's, else what is released to an environment
 * for this caller (`env`, `caller`: through {@link PromptVersionSources}), else the latest.
 */
export interface PromptRef {
  version?: string;
  label?: string;
  /** An environment a version was released to (dev, staging, production ...). */
  env?: string;
  /** Who the prompt is served for (an end user's id): a gray release picks by it. */
  caller?: string;
}

export interface Prompts {
  /** The version a reference names (see {@link PromptRef}); undefined when there is none. */
  resolve(spaceId: string, key: string, ref?: PromptRef): Promise<ResolvedPrompt | undefined>;
  /** A prompt of the space by id (not deleted). */
  byId(
    spaceId: string,
    promptId: string,
  ): Promise<{ prompt_id: string; prompt_key: string; name: string; latest_version: string } | undefined>;
  /** The prompt's messages with the variables filled in (placeholders expanded); what was not given is listed. */
  render(
    detail: PromptDetail,
    variables: Record<string, unknown>,
  ): Promise<{ messages: { role: 'system' | 'user' | 'assistant'; content: string }[]; missing: string[] }>;
  /** The space's prompts with a committed version, by name. */
  list(spaceId: string): Promise<{ prompt_key: string; name: string }[]>;
  /** A prompt's versions (newest first, whether each has a model) and labels; undefined when there is no such prompt. */
  versions(spaceId: string, key: string): Promise<PromptVersions | undefined>;
}

export interface PromptVersions {
  versions: { version: string; has_model: boolean }[];
  labels: { label: string; version: string }[];
}

/** What an environment serves of a prompt, for a caller. */
export interface PromptVersionSource {
  key: string;
  /**
   * The version released to `env` for this caller (a gray release's to the callers it covers); undefined when nothing
   * is released there. Called for every fetch or render that names an environment: answer from memory.
   */
  resolve(q: { spaceId: string; promptId: string; env: string; caller?: string }): Promise<string | undefined>;
}

/** Where versions released to environments come from (the prompt releases extension); without one, `env` is refused. */
export const PromptVersionSources = defineRegistryPoint<PromptVersionSource>({
  id: 'prompts.versionSources',
  owner: 'prompts',
  description: 'The version of a prompt an environment serves to a caller (releases, gray releases).',
  key: (s) => s.key,
});

export const PromptsService = defineService<Prompts>({
  id: 'prompts.service',
  owner: 'prompts',
  description: 'Library prompts by key and label, rendered.',
});
