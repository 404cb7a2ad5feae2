import { z } from 'zod';

export const VariableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,49}$/, 'A variable name has letters, digits and _ (not first), at most 50.');

export const VariablesSkillSettings = z.object({
  variables: z
    .array(
      z.object({
        name: VariableName,
        description: z.string().max(300).default(''),
        default_value: z.string().max(2000).default(''),
        /** The model may change it (set_variable); otherwise only read. */
        writable: z.boolean().default(true),
      }),
    )
    .max(50, 'A bot has at most 50 variables.')
    .refine((l) => new Set(l.map((v) => v.name)).size === l.length, 'Two variables have the same name.')
    .default([]),
});
export type VariablesSkillSettings = z.infer<typeof VariablesSkillSettings>;
