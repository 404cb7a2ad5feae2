// The prompt library's calls (Coze Loop's /api/prompt/v1/prompts ... and the open API /v1/loop/prompts): one contract
// for the routes, the pages and /openapi.json. Times are Unix seconds, as Coze Loop answers them.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { Message, PromptDetail } from './index.ts';

const Id = z.string().min(1).max(32);
const Version = z.string().max(32);
export const PromptKey = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/,
    'A prompt key starts with a letter and has letters, digits, _ . and -, at most 100 (apps fetch the prompt by it).',
  );
const Label = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'A label has lower-case letters, digits, _ and - (like production), at most 64.');
const BASE = '/api/prompt/v1/prompts';
const OnePrompt = z.object({ prompt_id: Id });
const Done = z.object({});

export const PromptView = z.object({
  id: z.string(),
  workspace_id: z.string(),
  prompt_key: z.string(),
  prompt_basic: z.object({
    display_name: z.string(),
    description: z.string(),
    latest_version: z.string(),
    created_by: z.string(),
    created_at: z.number(),
    updated_at: z.number(),
  }),
});
export type PromptView = z.output<typeof PromptView>;

export const LabelView = z.object({ label: z.string(), version: z.string(), update_time: z.number() });
const Labels = z.object({ labels: z.array(LabelView) });

export const PromptFullView = PromptView.extend({
  prompt_draft: z.object({
    draft_info: z.object({ base_version: z.string(), is_modified: z.boolean(), updated_at: z.number() }),
    detail: PromptDetail,
  }),
  /** The version asked for with `with_commit_version`. */
  prompt_commit: z
    .object({
      commit_info: z.object({
        version: z.string(),
        description: z.string(),
        committed_by: z.string(),
        committed_at: z.number(),
      }),
      detail: PromptDetail,
    })
    .optional(),
  labels: z.array(LabelView),
});
export type PromptFullView = z.output<typeof PromptFullView>;

export const CommitView = z.object({
  version: z.string(),
  description: z.string(),
  committed_by: z.string(),
  committed_at: z.number(),
  /** The labels pointing at this version. */
  labels: z.array(z.string()),
  detail: PromptDetail,
});
export type CommitView = z.output<typeof CommitView>;

export const CreatePrompt = defineEndpoint({
  method: 'POST',
  path: BASE,
  summary: 'Create a prompt (key unique in the space) with a first draft',
  body: z.object({
    workspace_id: Id,
    prompt_key: PromptKey,
    prompt_name: z.string().trim().min(1, 'Give the prompt a name.').max(100),
    prompt_description: z.string().max(2000).default(''),
    draft_detail: PromptDetail.optional(),
  }),
  response: z.object({ prompt_id: z.string() }),
});

export const ListPrompts = defineEndpoint({
  method: 'POST',
  path: `${BASE}/list`,
  summary: "The space's prompts, newest changed first: by key or name words, pages",
  body: z.object({
    workspace_id: Id,
    key_word: z.string().max(100).optional(),
    page_num: z.number().int().min(1).max(10_000).default(1),
    page_size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ prompts: z.array(PromptView), total: z.number() }),
});

export const GetPrompt = defineEndpoint({
  method: 'GET',
  path: `${BASE}/:prompt_id`,
  summary:
    "A prompt with its draft, its versions' numbers and its labels (with_commit_version: that version's content too)",
  params: OnePrompt,
  query: z.object({ with_commit_version: Version.optional() }),
  response: z.object({ prompt: PromptFullView }),
});

export const UpdatePrompt = defineEndpoint({
  method: 'PUT',
  path: `${BASE}/:prompt_id`,
  summary: "Change a prompt's name or description (its key stays: apps fetch it by the key)",
  params: OnePrompt,
  body: z.object({
    prompt_name: z.string().trim().min(1).max(100).optional(),
    prompt_description: z.string().max(2000).optional(),
  }),
  response: Done,
});

export const DeletePrompt = defineEndpoint({
  method: 'DELETE',
  path: `${BASE}/:prompt_id`,
  summary: 'Delete a prompt (apps fetching its key get a not-found from then on)',
  params: OnePrompt,
  response: Done,
});

export const ClonePrompt = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/clone`,
  summary: 'Copy a prompt under a new key (its draft, or one of its versions)',
  params: OnePrompt,
  body: z.object({
    cloned_prompt_key: PromptKey,
    cloned_prompt_name: z.string().trim().min(1).max(100),
    commit_version: Version.optional(),
  }),
  response: z.object({ cloned_prompt_id: z.string() }),
});

export const SaveDraft = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/drafts/save`,
  summary: 'Save the draft as it is edited (messages, variables, model settings, tools)',
  params: OnePrompt,
  body: z.object({ prompt_draft: z.object({ detail: PromptDetail }) }),
  response: z.object({ draft_info: z.object({ base_version: z.string(), is_modified: z.boolean() }) }),
});

export const CommitDraft = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/drafts/commit`,
  summary: 'Commit the draft as a version (a number greater than the last one, like 1.0.1) with a description',
  params: OnePrompt,
  body: z.object({
    commit_version: z.string().trim().max(32).optional(),
    commit_description: z.string().max(2000).default(''),
  }),
  response: z.object({ version: z.string() }),
});

export const RevertDraft = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/drafts/revert_from_commit`,
  summary: 'Make the draft what a version was',
  params: OnePrompt,
  body: z.object({ commit_version_reverting_from: Version }),
  response: Done,
});

export const ListCommits = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/commits/list`,
  summary: "The prompt's versions, newest first, with their content and the labels on each",
  params: OnePrompt,
  body: z.object({ page_size: z.number().int().min(1).max(200).default(50) }).default({ page_size: 50 }),
  response: z.object({ prompt_commit_infos: z.array(CommitView) }),
});

export const SetLabel = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/labels/set`,
  summary: 'Point a label (production, staging ...) at a version: apps fetching by the label get it at once',
  params: OnePrompt,
  body: z.object({ label: Label, version: Version }),
  response: Labels,
});

export const DeleteLabel = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/labels/delete`,
  summary: 'Remove a label (apps fetching by it get a not-found)',
  params: OnePrompt,
  body: z.object({ label: Label }),
  response: Labels,
});

/** The playground's run (`debug_streaming`'s body): the draft, a version, or the detail as it is on screen. */
export const DebugRun = z.object({
  version: Version.default('draft'),
  detail: PromptDetail.optional(),
  variable_vals: z.record(z.string(), z.unknown()).default({}),
  model_config: PromptDetail.shape.model_config.optional(),
});

export const DebugHistoryItem = z.object({
  debug_id: z.string(),
  version: z.string(),
  model_id: z.string(),
  variable_vals: z.record(z.string(), z.unknown()),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  output: z.string(),
  /** success or error */
  status: z.string(),
  error: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  latency_ms: z.number(),
  created_at: z.number(),
});
export type DebugHistoryItem = z.output<typeof DebugHistoryItem>;

export const ListDebugHistory = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:prompt_id/debug_history/list`,
  summary: 'Your runs of this prompt in the playground, newest first (days_limit: how far back)',
  params: OnePrompt,
  body: z
    .object({
      days_limit: z.number().int().min(1).max(365).default(30),
      page_size: z.number().int().min(1).max(100).default(20),
    })
    .default({ days_limit: 30, page_size: 20 }),
  response: z.object({ debug_history: z.array(DebugHistoryItem) }),
});

// ---- the open API (a personal access token holding prompt.read)

export const PromptQuery = z.object({
  prompt_key: z.string().min(1).max(100),
  version: Version.optional(),
  label: z.string().max(64).optional(),
  /** The environment released to (dev, staging, production ...); with `user_id`, a gray release applies. */
  env: z.string().max(32).optional(),
  /** The end user the prompt is served for: the same one always gets the same version of a gray release. */
  user_id: z.string().max(128).optional(),
});
export type PromptQuery = z.output<typeof PromptQuery>;

export const MGetPrompts = defineEndpoint({
  method: 'POST',
  path: '/v1/loop/prompts/mget',
  summary: 'Prompts by key (and a version or a label; else the latest version), for apps that render them themselves',
  body: z.object({
    workspace_id: Id,
    queries: z.array(PromptQuery).min(1, 'Ask for at least one prompt.').max(50),
  }),
  response: z.object({
    items: z.array(
      z.object({
        query: PromptQuery,
        prompt: z.object({
          workspace_id: z.string(),
          prompt_key: z.string(),
          version: z.string(),
          prompt_template: PromptDetail.shape.prompt_template,
          tools: PromptDetail.shape.tools,
          llm_config: PromptDetail.shape.model_config,
        }),
      }),
    ),
  }),
});

export const RenderPrompt = defineEndpoint({
  method: 'POST',
  path: '/v1/loop/prompts/render',
  summary: "A prompt's messages filled with variables (by key, and a version or a label; else the latest version)",
  body: PromptQuery.extend({
    workspace_id: Id,
    variables: z.record(z.string(), z.unknown()).default({}),
  }),
  response: z.object({
    prompt_key: z.string(),
    version: z.string(),
    messages: z.array(Message.extend({ role: z.enum(['system', 'user', 'assistant']) })),
    missing_variables: z.array(z.string()),
    llm_config: PromptDetail.shape.model_config,
    tools: PromptDetail.shape.tools,
  }),
});
