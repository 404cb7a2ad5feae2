import { z } from 'zod';

export const VariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,49}$/, 'A variable name has letters, digits and _ (not first), at most 50.');

export const VariablesSkillSettings = z.object({
  variables: z
    .array(
      z.object({
        name: VariableName,
        description: z.string().max(300).default(''),
        default_value: z.string().max(2000).default(''),
        /** The model may change it (set_variable); otherwise only read. */
        writable: z.boolean().default(true),
        /** End users (apps through PUT /v1/variables) may set it; otherwise only the bot and the studio. */
        user_editable: z.boolean().default(true),
      }),
    )
    .max(50, 'A bot has at most 50 variables.')
    .refine((l) => new Set(l.map((v) => v.name)).size === l.length, 'Two variables have the same name.')
    .default([]),
});
export type VariablesSkillSettings = z.infer<typeof VariablesSkillSettings>;

/** Values every bot with the variables skill has (read as {{sys_uuid}} ...); not set by anyone. */
export const SYSTEM_VARIABLES = [
  { key: 'sys_uuid', description: { 'en-US': 'The end user talking to the bot', 'zh-CN': '与智能体对话的终端用户' } },
  {
    key: 'sys_connector_id',
    description: {
      'en-US': 'The channel (1024 API, 999 chat page, debug)',
      'zh-CN': '渠道（1024 API、999 聊天页、debug 调试）',
    },
  },
  {
    key: 'sys_time',
    description: { 'en-US': 'The time of the turn (ISO 8601, UTC)', 'zh-CN': '本轮对话的时间（ISO 8601，UTC）' },
  },
] as const;

// ---- what the variables' calls answer (Coze's shapes)

/** A variable's value for one user (create_time 0: the default applies). */
export const VariableValue = z.object({
  keyword: z.string(),
  value: z.string(),
  create_time: z.number(),
  update_time: z.number(),
});
export const DebugValues = z.object({
  memories: z.array(VariableValue.extend({ is_system: z.boolean(), prompt_disabled: z.boolean(), schema: z.string() })),
});
export const OpenValues = z.object({ items: z.array(VariableValue) });
export const VariableMetaMap = z.object({
  /** By channel: 1 a bot's own, 5 a project's. */
  VariableMap: z.record(
    z.string(),
    z.array(
      z.object({
        Keyword: z.string(),
        DefaultValue: z.string(),
        VariableType: z.number(),
        Channel: z.number(),
        Description: z.string(),
        Enable: z.boolean(),
        Schema: z.string(),
        IsReadOnly: z.boolean(),
      }),
    ),
  ),
});
export const SystemVariableConf = z.object({
  conf: z.array(
    z.object({
      key: z.string(),
      default_value: z.string(),
      description: z.string(),
      can_write: z.string(),
      group_name: z.string(),
    }),
  ),
});
export const NoAnswer = z.object({});
