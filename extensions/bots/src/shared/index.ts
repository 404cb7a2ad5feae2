// The bots extension's shared contract: what mode and skill extensions (and later areas) build on.
import { defineEvent, defineRegistryPoint, defineService, type Language } from '@tessera/sdk';
import type { ComponentType } from 'react';
import { z } from 'zod';

/** Coze's numbering of bot modes (`bot_mode`): 0 single agent, 1 multi-agent, 2 a workflow answers. */
export const BotModeCode = { Single: 0, Multi: 1, Workflow: 2 } as const;

/** The connectors (channels) a bot is published to, with Coze's ids where Coze has one. */
/** The studio's own chat page uses the id of Coze's web chat SDK channel (999). */
export const Connectors = { API: '1024', ChatPage: '999' } as const;
export const CONNECTOR_NAMES: Record<string, Record<Language, string>> = {
  [Connectors.API]: { 'en-US': 'API', 'zh-CN': 'API' },
  [Connectors.ChatPage]: { 'en-US': 'Chat page', 'zh-CN': '聊天页面' },
};

const Text = (max: number) => z.string().max(max);

/** A shortcut command; a draft may hold one being written (publishing checks them: shortcutProblems). */
export const ShortcutCommand = z.object({
  id: z.string().min(1).max(32),
  /** What the user types: "/weather". */
  command: z.string().max(31),
  name: z.string().max(40),
  description: Text(200).default(''),
  /** Sent as the user's message; {{text}} is what follows the command. */
  query_template: z.string().max(2000),
});
export const SHORTCUT_COMMAND = /^\/[\p{L}\p{N}_-]{1,30}$/u;

/** What keeps a bot's shortcut commands from being published. */
export function shortcutProblems(list: ShortcutCommand[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of list) {
    if (!SHORTCUT_COMMAND.test(s.command))
      out.push(`The shortcut "${s.command}" must start with / and have letters, digits, _ or - (at most 30).`);
    else if (seen.has(s.command)) out.push(`The shortcut ${s.command} is there twice.`);
    if (!s.name.trim()) out.push(`Name the shortcut ${s.command}.`);
    if (!s.query_template.trim()) out.push(`Write what the shortcut ${s.command} sends.`);
    seen.add(s.command);
  }
  return out;
}
export type ShortcutCommand = z.infer<typeof ShortcutCommand>;

/** A bot's configuration (the draft, and each committed version). */
export const BotConfig = z.object({
  /** The key of a `BotModes` entry. */
  mode: z.string().min(1).max(64).default('single-agent'),
  /** The mode's own settings (prompt and model for the single agent, the workflow for chat-flow mode). */
  settings: z.record(z.string(), z.unknown()).default({}),
  /** Each skill's settings by its `BotSkills` key (absent: the skill is off). */
  skills: z.record(z.string(), z.unknown()).default({}),
  onboarding: z
    .object({ prologue: Text(5000).default(''), suggested_questions: z.array(Text(300)).max(10).default([]) })
    .prefault({}),
  /** Suggested replies after each answer: off, the default prompt, or the bot's own. */
  suggest_reply: z
    .object({ mode: z.enum(['off', 'default', 'custom']).default('off'), prompt: Text(5000).default('') })
    .prefault({}),
  shortcuts: z.array(ShortcutCommand).max(20).default([]),
});
export type BotConfig = z.infer<typeof BotConfig>;

/** A message of the conversation as a mode sees it (the current section, oldest first). */
export interface TurnMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** A tool a skill gives the model. */
export interface BotTool {
  /** Unique among the bot's tools: letters, digits and _ (the model calls it by this name). */
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object). */
  parameters: Record<string, unknown>;
  /** Runs the call; a thrown error is given back to the model as the tool's result, not the end of the chat. */
  execute(args: Record<string, unknown>, call: { signal: AbortSignal }): Promise<unknown>;
  /** What the tool runs (a plugin's API, a workflow): extensions that show a tool's output (cards) find it by this. */
  source?: ToolSource;
}

/** What a tool runs: `id` is the API's or the workflow's id (`plugin_id` with an API). */
export interface ToolSource {
  kind: 'plugin_api' | 'workflow';
  id: string;
  plugin_id?: string;
}

/** Who is talking to a bot, and where. */
export interface TurnIdentity {
  botId: string;
  spaceId: string;
  /** The studio user whose session or token started the turn (usage and permissions). */
  userId: string;
  /** The end user in the channel (the open API's user_id; the studio user elsewhere). */
  endUserId: string;
  connectorId: string;
  conversationId: string;
  chatId: string;
  /** The published version that answers, or null for the draft (debug chat). */
  version: string | null;
}

/** What a skill is given to contribute to one turn. */
export interface SkillTurnContext extends TurnIdentity {
  /** The skill's settings from the bot's configuration. */
  settings: unknown;
  /** Variables the caller sent with the turn (the open API's custom_variables). */
  customVariables: Record<string, string>;
  /** What the user said this turn (a skill may look things up for it before the model runs). */
  query: string;
  signal: AbortSignal;
}

/** What a skill contributes to a turn. */
export interface SkillContribution {
  tools?: BotTool[];
  /** Values for `{{name}}` in the persona prompt. */
  values?: Record<string, unknown>;
  /** Text added to the system prompt (what the skill tells the model about itself). */
  instructions?: string;
  /**
   * What the skill did for this turn before the model ran (a knowledge search, a memory recall): shown
   * in the answer's steps as a tool call with its result, so people see what the answer rests on.
   */
  steps?: { name: string; arguments: unknown; result: unknown }[];
}

/** A kind of skill (workflows, plugins, knowledge, tables, variables, memory ...), each an extension. */
export interface BotSkillDefinition {
  key: string;
  label: Record<Language, string>;
  /** Validates the skill's settings in a bot's configuration (saved drafts are checked with it). */
  settings: z.ZodType;
  /** Called once per turn, before the model is called. */
  contribute(ctx: SkillTurnContext): Promise<SkillContribution>;
  /** For the open API's bot info: what the skill shows (e.g. workflow_info_list). */
  describe?(settings: unknown, spaceId: string): Promise<Record<string, unknown>>;
  /**
   * The skill's settings from an open-API create or update body (`/v1/bot/create`: workflow_id_list,
   * plugin_id_list ...), given the current ones; undefined when the body says nothing of the skill.
   */
  fromOpenApi?(body: Record<string, unknown>, current: unknown): unknown;
}

const fn = z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function');

export const BotSkills = defineRegistryPoint<BotSkillDefinition>({
  id: 'bots.skills',
  owner: 'bots',
  description: 'Skills a bot can use: each contributes tools, prompt values and instructions to a turn.',
  schema: z.object({ key: z.string().regex(/^[a-z][a-z0-9-]*$/), contribute: fn }),
  key: (s) => s.key,
});

/** Where a tool's output is shown: the turn it answered in. */
export interface ToolOutputContext {
  spaceId: string;
  botId: string;
  /** The published version answering, or null for the draft (the debug chat). */
  version: string | null;
  /** The channel: 'debug' (the editor's chat), a connector id (999 the chat page and Web SDK, 1024 the API ...). */
  connectorId: string;
  tool: { name: string; source: ToolSource };
  output: unknown;
  language?: Language;
}
/** A message shown in the answer for a tool's output: a card, or its text where the channel cannot show cards. */
export interface ToolOutputMessage {
  content_type: 'card' | 'text';
  content: string;
  /**
   * Kept in the message's meta_data with `tool_output` (the tool's name), which marks it as showing a tool's output;
   * `llm_text: 'hide'` asks chats not to show the model's text beside it.
   */
  meta_data?: Record<string, string>;
}
/**
 * Shows a tool's output in the answer (cards bound to a plugin API or a workflow): asked after each tool that has a
 * source answered; each view that answers adds an answer message before the model's text. A view that throws is
 * logged and left out.
 */
export interface ToolOutputView {
  key: string;
  view(ctx: ToolOutputContext): Promise<ToolOutputMessage | undefined>;
}
export const ToolOutputViews = defineRegistryPoint<ToolOutputView>({
  id: 'bots.toolOutputViews',
  owner: 'bots',
  description: "Messages that show a tool's output in a bot's answer (a card bound to a plugin API or a workflow).",
  schema: z.object({ key: z.string().min(1), view: fn }),
  key: (v) => v.key,
});

/** Events of a turn, as the mode produces them. */
export interface TurnEmitter {
  /** A piece of the answer. */
  delta(text: string): void;
  reasoning(text: string): void;
  toolCall(call: { id: string; name: string; arguments: unknown }): void;
  toolResult(result: { id: string; name: string; output?: unknown; error?: string }): void;
  /**
   * Values kept in the answer's `meta_data` (strings, as the open API's), merged with earlier ones: who answered in
   * a mode with several agents (`agent_id`, `agent_name`) ... Sent with the answer's deltas from then on.
   */
  meta?(values: Record<string, string>): void;
}

/** One turn of a conversation, as a mode runs it. */
export interface BotTurnContext extends TurnIdentity {
  /** The mode's settings, parsed with its schema. */
  settings: any;
  config: BotConfig;
  /** The user's message. */
  query: string;
  /** Earlier messages of the current section (oldest first; user and assistant answers only). */
  history: TurnMessage[];
  customVariables: Record<string, string>;
  /** What the bot's enabled skills contribute (tools named uniquely; values; instructions). */
  skills(): Promise<SkillContribution[]>;
  /**
   * What these skills (by key, with their settings) contribute to the turn: a mode with several agents gives each
   * agent its own skills. Unknown or invalid ones are left out, as for the bot's.
   */
  skillsOf(skills: Record<string, unknown>): Promise<SkillContribution[]>;
  /** Renders `{{name}}` with the skills' values and the custom variables. */
  render(template: string, values: Record<string, unknown>): string;
  emit: TurnEmitter;
  /** Records model tokens against the space, model and conversation. */
  recordUsage(usage: { model_id: string; input_tokens: number; output_tokens: number }): Promise<void>;
  signal: AbortSignal;
  /** The reader's language, for what a mode writes itself (the reasons among its steps). */
  language?: Language;
}

export interface TurnResult {
  /** The whole answer (the deltas joined, unless the mode says otherwise). */
  answer?: string;
  usage?: { input_tokens: number; output_tokens: number };
  /**
   * Suggested replies for this turn, in place of the bot's (a mode with several agents gives each agent its own):
   * off, the default prompt or this prompt, asked of this model (else the mode's `modelOf`).
   */
  suggest?: { mode: 'off' | 'default' | 'custom'; prompt?: string; model_id?: string };
}

/** A bot mode (single agent, chat-flow, multi-agent ...), each an extension. */
export interface BotModeDefinition {
  key: string;
  /** `bot_mode` as the open API reports it. */
  code: number;
  label: Record<Language, string>;
  settings: z.ZodType;
  /** Problems that keep a configuration from being published (a missing model ...). */
  problems?(settings: unknown): string[];
  run(turn: BotTurnContext): Promise<TurnResult>;
  /** For the open API's bot info (prompt_info, model_info ...). */
  describe?(settings: unknown): Record<string, unknown>;
  /** The mode's settings from an open-API create or update body (prompt_info, model_info_config ...). */
  fromOpenApi?(body: Record<string, unknown>, current: unknown): unknown;
  /** Suggested replies: the model to ask (modes without a model return nothing and get none). */
  modelOf?(settings: unknown): string | undefined;
  /** The settings with this model chosen: a new bot takes the space's default chat model through it. */
  withModel?(settings: unknown, model: { model_id: string; model_name: string }): unknown;
}

/** A bot mode whose hooks take its settings as its schema gives them (`defineBotMode`). */
export interface TypedBotMode<S extends z.ZodType> extends Omit<
  BotModeDefinition,
  'settings' | 'problems' | 'run' | 'describe' | 'modelOf'
> {
  settings: S;
  problems?(settings: z.output<S>): string[];
  /** A turn, with the mode's settings parsed. */
  run(turn: BotTurnContext, settings: z.output<S>): Promise<TurnResult>;
  describe?(settings: z.output<S>): Record<string, unknown>;
  modelOf?(settings: z.output<S>): string | undefined;
}

/**
 * A bot mode typed by its settings schema: each hook gets the settings parsed with it. The bots extension hands them
 * parsed already; parsing again costs microseconds and checks what the types say. Settings the schema refuses give
 * their first problem to `problems`, no model to `modelOf`, and the schema's error to `run` and `describe`.
 */
export function defineBotMode<S extends z.ZodType>(mode: TypedBotMode<S>): BotModeDefinition {
  const { settings, problems, run, describe, modelOf, ...rest } = mode;
  return {
    ...rest,
    settings,
    run: async (turn) => run(turn, settings.parse(turn.settings)),
    ...(problems && {
      problems: (s: unknown) => {
        const r = settings.safeParse(s);
        return r.success ? problems(r.data) : [r.error.issues[0]?.message ?? 'The settings are not valid.'];
      },
    }),
    ...(describe && { describe: (s: unknown) => describe(settings.parse(s)) }),
    ...(modelOf && {
      modelOf: (s: unknown) => {
        const r = settings.safeParse(s);
        return r.success ? modelOf(r.data) : undefined;
      },
    }),
  };
}

export const BotModes = defineRegistryPoint<BotModeDefinition>({
  id: 'bots.modes',
  owner: 'bots',
  description: 'How a bot answers a turn: single agent, chat-flow, multi-agent ..., each an extension.',
  schema: z.object({ key: z.string().regex(/^[a-z][a-z0-9-]*$/), code: z.number().int().min(0), run: fn }),
  key: (m) => m.key,
  unique: (m) => [`code ${m.code}`],
});

export const BotPublished = defineEvent<{
  bot_id: string;
  space_id: string;
  version: string;
  connectors: string[];
  /** The bot's name, and who published it. */
  name?: string;
  user_id?: string;
}>('bots.published', 'A bot version was published.');
export const ChatFinished = defineEvent<{
  chat_id: string;
  bot_id: string;
  space_id: string;
  conversation_id: string;
  status: string;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
  /** Who chatted (the studio user, or the channel's end user) and through which channel. */
  user_id?: string;
  connector_id?: string;
  /** The published version that answered; null for the draft (the editor's debug chat). */
  version?: string | null;
}>('bots.chat.finished', 'A chat turn ended (completed, failed or cancelled).');

export interface BotSummary {
  bot_id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  mode: string;
}

/** What other extensions ask of bots (server side). */
export interface Bots {
  get(botId: string): Promise<BotSummary | undefined>;
  list(spaceId: string): Promise<BotSummary[]>;
  /**
   * A skill's settings in the bot's configuration as published (undefined when it is not published or the
   * skill is not on) or as drafted.
   */
  skillSettings(botId: string, skill: string, which: 'published' | 'draft'): Promise<unknown>;
  /**
   * Sets a skill's settings in the bot's draft (checked with the skill's schema; a new draft revision, as an edit in
   * the editor makes), or turns the skill off with `undefined`. Published with the bot's next version.
   */
  setSkillSettings(botId: string, skill: string, settings: unknown, userId: string): Promise<void>;
  /** The published version as a channel shows it: where it is offered, with each channel's settings (undefined: not published). */
  publication(botId: string): Promise<BotPublication | undefined>;
  /**
   * The configuration of the bot's published version (undefined when it is not published): a mode that lets another
   * bot answer (an agent of a multi-agent bot) runs that bot's mode with it.
   */
  publishedConfig(botId: string): Promise<{ version: string; config: BotConfig } | undefined>;
}

export interface BotPublication extends BotSummary {
  version: string;
  connectors: string[];
  connector_settings: Record<string, unknown>;
  onboarding: { prologue?: string; suggested_questions?: string[] } & Record<string, unknown>;
  creator_id: string;
}
export const BotsService = defineService<Bots>({ id: 'bots.registry', owner: 'bots', description: 'Bots of a space.' });

/** A turn answered by a mode outside any bot (the open API's /v1/workflows/chat: a chat-flow answers). */
export interface AdhocTurn {
  spaceId: string;
  /** The studio user (the token's). */
  userId: string;
  /** What the conversation belongs to in place of a bot (the chat-flow's id). */
  ownerId: string;
  mode: string;
  settings: Record<string, unknown>;
  /** Continue this conversation of the user's (it must belong to ownerId); absent: a new one. */
  conversationId?: string;
  endUserId: string;
  connectorId: string;
  messages: { role: 'user' | 'assistant'; content: string; type?: string; meta_data?: Record<string, string> }[];
  customVariables: Record<string, string>;
  logId: string;
}

/** Where a chat's events go: a route's server-sent event stream (`reply.sse()`). */
export interface ChatEventSink {
  send(event: string, data: unknown, id?: string): void;
  close(): void;
  readonly closed: boolean;
}

/** Chats for other extensions: start a turn and stream it in Coze's chat events. */
/** A question to a bot as published to the API connector (MCP callers, other channels on the API). */
export interface PublishedTurn {
  botId: string;
  /** The studio user (the token's). */
  userId: string;
  endUserId: string;
  message: string;
  /** Continue this conversation of the user's with the bot; absent: a new one. */
  conversationId?: string;
  logId: string;
  /** The channel it comes through (default the API, 1024); the bot must be published there. */
  connectorId?: string;
}

export interface BotChats {
  start(turn: AdhocTurn): Promise<{ chat_id: string; conversation_id: string }>;
  /** Starts a chat with the published bot (it must be published to the turn's connector, by default the API, 1024). */
  startPublished(turn: PublishedTurn): Promise<{ chat_id: string; conversation_id: string }>;
  /** Streams a live chat's events (Coze's shape) until it ends; the client going away cancels it. */
  stream(chatId: string, sse: ChatEventSink, signal: AbortSignal): Promise<void>;
  /** What a finished chat was: the question, the answer, who asked and where (memory extraction ...). */
  exchange(conversationId: string, chatId: string): Promise<ChatExchange | undefined>;
}

export interface ChatExchange {
  bot_id: string;
  space_id: string;
  end_user_id: string;
  connector_id: string;
  /** The editor's debug chat (the bot's draft answered). */
  draft: boolean;
  question: string;
  answer: string;
}
export const BotChatsService = defineService<BotChats>({
  id: 'bots.chats',
  owner: 'bots',
  description: "Chats started by other extensions, streamed in Coze's events.",
});

// The bot editor's skill panels as a contract point: each skill's extension registers its panel (drawn in the bot
// editor, and wherever else a skill's settings are chosen: the agent workspace's tools). Client-side registrations;
// the token lives in the contract so that extensions for which bots is optional may read it.

const panelComponent = z.custom<ComponentType<any>>(
  (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
  'must be a React component',
);

export interface BotSkillPanelProps<S = any> {
  value: S;
  onChange(next: S): void;
  spaceId: string;
  /** The bot being edited ('' where the settings are not a bot's: an agent workspace task's tools). */
  botId: string;
}

/** A skill's panel in the bot editor's skills column; without its extension the panel and its tools are gone. */
export interface BotSkillPanel {
  /** The key of the skill (its `BotSkills` entry on the server). */
  key: string;
  /** Translation key (in the owner's namespace). */
  label: string;
  /** Translation key of a line saying what the skill gives the bot. */
  description?: string;
  order?: number;
  /** The skill's settings when it is first turned on. */
  empty(): unknown;
  /** How many things the skill holds (shown on the collapsed panel), from its settings. */
  count?(value: any): number;
  Panel: ComponentType<BotSkillPanelProps>;
}

export const BotSkillPanels = defineRegistryPoint<BotSkillPanel>({
  id: 'bots.skillPanels',
  owner: 'bots',
  description: "Panels of the bot editor's skills column, one per skill kind.",
  schema: z.object({ key: z.string().min(1), label: z.string().min(1), Panel: panelComponent }),
  key: (s) => s.key,
});

/** Where a chat is: the bot, and whether its draft answers (the editor's debug chat) or its published version. */
export interface ChatPlace {
  spaceId: string;
  botId: string;
  draft: boolean;
}

export interface ChatComposerActionProps extends ChatPlace {
  /** A message is being answered. */
  busy: boolean;
  /** Sends this text as the user's message. */
  send(text: string): void;
}
/** A button beside the message box of a chat (speak instead of typing ...). */
export interface ChatComposerAction {
  key: string;
  Action: ComponentType<ChatComposerActionProps>;
}
export const ChatComposerActions = defineRegistryPoint<ChatComposerAction>({
  id: 'bots.chatComposerActions',
  owner: 'bots',
  description: 'Buttons beside the message box of a bot chat (the debug chat and the chat page).',
  schema: z.object({ key: z.string().min(1), Action: panelComponent }),
  key: (a) => a.key,
});
