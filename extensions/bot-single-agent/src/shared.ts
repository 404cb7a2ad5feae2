import { z } from 'zod';

/** The single agent's settings in a bot's configuration. */
export const SingleAgentSettings = z.object({
  /** The persona and instructions; `{{name}}` takes variables. */
  prompt: z.string().max(100_000, 'The prompt has at most 100,000 characters.').default(''),
  /** The persona from the prompt library (by key, and a label or version; else the latest) in place of `prompt`: its system messages, with the bot's values as variables. */
  prompt_ref: z
    .object({
      prompt_key: z.string().min(1, 'Give the key of the library prompt.').max(100),
      label: z.string().max(64).optional(),
      version: z.string().max(32).optional(),
    })
    .optional(),
  model: z
    .object({
      model_id: z.string().default(''),
      /** The model's name when it was chosen (shown; the id is what runs). */
      model_name: z.string().max(200).optional(),
      params: z
        .object({
          temperature: z.number().min(0).max(2).optional(),
          top_p: z.number().min(0).max(1).optional(),
          max_tokens: z.number().int().min(1).optional(),
        })
        .default({}),
      /** How many earlier rounds (a question and its answer) the model sees. */
      context_rounds: z.number().int().min(0).max(100).default(10),
    })
    .prefault({}),
  /** Model calls in one turn at most (each round may call tools). */
  max_tool_rounds: z.number().int().min(1).max(20).default(8),
});
export type SingleAgentSettings = z.infer<typeof SingleAgentSettings>;
