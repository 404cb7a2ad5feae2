// The tools of a task's step: those of the space it was given (the bots' skills: MCP tools, plugin APIs, workflows,
// knowledge), and the workspace's own: its files (list, read, write), the code sandbox, and a question to the person.
import type { ServerContext } from '@tessera/sdk/server';
import type { BotTool } from '@tessera/ext-bots/shared';
import { CodeSandboxService } from '@tessera/ext-node-code/shared';
import {
  FILE_NAME,
  MAX_FILES,
  mimeOf,
  skillRegistry,
  type FileRow,
  type TaskConfig,
  type TaskRow,
  type WorkspaceStore,
} from './store.ts';
import { fieldOf, isRecord } from '@tessera/sdk';

const MAX_FILE_BYTES = 1024 * 1024;
const READ_CHARS = 20_000;

/** What the step is told by its tools (the engine keeps the log). */
export interface ToolHooks {
  /** The agent asked the person something: the step ends there and the task waits. */
  ask(question: string): void;
  /** A file was written (by write_file or by code). */
  wrote(file: FileRow): Promise<void>;
}

export class AgentAsked extends Error {}

async function writeChecked(
  store: WorkspaceStore,
  t: TaskRow,
  name: string,
  content: unknown,
  hooks: ToolHooks,
): Promise<FileRow> {
  if (typeof name !== 'string' || !FILE_NAME.test(name))
    throw new Error(
      `"${String(name)}" is not a file name a task may use: letters, digits, spaces, _ . ( ) -, and one of the kinds md, txt, csv, json, svg, html, js, py, tsv, xml, yaml; no folders.`,
    );
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) throw new Error(`${name} is over 1 MB; write less.`);
  const existing = await store.files(t.id);
  if (!existing.some((f) => f.name === name) && existing.length >= MAX_FILES)
    throw new Error(`The task has ${MAX_FILES} files, the most it may keep.`);
  const row = await store.putFile(t.id, { name, content: text, mime: mimeOf(name), origin: 'output' });
  await hooks.wrote(row);
  return row;
}

function workspaceTools(ctx: ServerContext, store: WorkspaceStore, t: TaskRow, cfg: TaskConfig, hooks: ToolHooks) {
  const tools: BotTool[] = [
    {
      name: 'list_files',
      description: "Lists the task's files: those the person gave and those written so far.",
      parameters: { type: 'object', properties: {} },
      execute: async () =>
        (await store.files(t.id)).map((f) => ({ name: f.name, bytes: Number(f.bytes), origin: f.origin })),
    },
    {
      name: 'read_file',
      description: `Reads a file of the task (its text; the first ${READ_CHARS} characters from offset).`,
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The file name, as list_files gives it.' },
          offset: { type: 'integer', description: 'The character to start from (default 0).' },
        },
        required: ['name'],
      },
      execute: async (args) => {
        const f = await store.file(t.id, String(args.name ?? ''));
        if (!f) throw new Error(`The task has no file "${String(args.name)}". Call list_files to see what it has.`);
        if (!f.content && f.bytes) return { name: f.name, note: `${f.name} (${f.mime}) has no text to read.` };
        const from = Math.max(0, Number(args.offset) || 0);
        const text = f.content.slice(from, from + READ_CHARS);
        return { name: f.name, text, more: from + text.length < f.content.length };
      },
    },
    {
      name: 'write_file',
      description:
        'Writes a file the person keeps with the task (a report in Markdown, a table in CSV, a chart in SVG, data in JSON). A file of that name is replaced.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'e.g. report.md, sales.csv, chart.svg' },
          content: { type: 'string', description: 'The whole text of the file.' },
        },
        required: ['name', 'content'],
      },
      execute: async (args) => {
        const f = await writeChecked(store, t, String(args.name ?? ''), args.content ?? '', hooks);
        return { written: f.name, bytes: Number(f.bytes) };
      },
    },
    {
      name: 'ask_user',
      description:
        'Asks the person a question when the task cannot go on without their answer (a choice only they can make, something missing). The task waits for the answer.',
      parameters: {
        type: 'object',
        properties: { question: { type: 'string', description: 'One clear question.' } },
        required: ['question'],
      },
      execute: async (args) => {
        hooks.ask(String(args.question ?? '').slice(0, 2000));
        throw new AgentAsked('asked');
      },
    },
  ];
  const sandbox = ctx.optionalService(CodeSandboxService);
  if (cfg.code && sandbox)
    tools.push({
      name: 'run_code',
      description:
        'Runs code in a sandbox (no network, limited time and memory). JavaScript: `async function main({ params }) { ... }`; Python: `async def main(args):` with args.params. params.files maps each file name of the task to its text. Return a JSON value; return { files: { "name.csv": "text" } } among it to write files.',
      parameters: {
        type: 'object',
        properties: {
          language: { type: 'string', enum: ['javascript', 'python'] },
          code: { type: 'string' },
        },
        required: ['language', 'code'],
      },
      execute: async (args) => {
        const language = args.language === 'python' ? 'python' : 'javascript';
        const files: Record<string, string> = {};
        for (const f of await store.files(t.id)) files[f.name] = f.content;
        const out = await sandbox.run(
          language,
          String(args.code ?? ''),
          { files },
          { timeoutMs: 20_000, memoryMb: 128 },
          t.space_id,
        );
        const written = fieldOf(out, 'files');
        if (!isRecord(out) || !isRecord(written)) return out;
        const names: string[] = [];
        for (const [name, content] of Object.entries(written))
          names.push((await writeChecked(store, t, name, content, hooks)).name);
        return { ...out, files: names };
      },
    });
  return tools;
}

/**
 * The tools of a step. The space's tools come from the bots' skills with the task's settings for each (a skill
 * whose extension is off gives none); knowledge is looked up when the agent decides to.
 */
export async function toolsOf(
  ctx: ServerContext,
  store: WorkspaceStore,
  t: TaskRow,
  cfg: TaskConfig,
  query: string,
  hooks: ToolHooks,
  signal: AbortSignal,
): Promise<{ tools: BotTool[]; instructions: string[] }> {
  const tools = workspaceTools(ctx, store, t, cfg, hooks);
  const instructions: string[] = [];
  const skills = skillRegistry(ctx);
  for (const [key, raw] of Object.entries(cfg.tools ?? {})) {
    const skill = skills?.get(key);
    if (!skill) continue;
    const parsed = skill.settings.safeParse(key === 'knowledge' ? { ...(raw as object), recall: 'tool' } : raw);
    if (!parsed.success) continue;
    const c = await skill.contribute({
      botId: `task:${t.id}`,
      spaceId: t.space_id,
      userId: t.creator_id,
      endUserId: t.creator_id,
      connectorId: 'agent-workspace',
      conversationId: t.id,
      chatId: t.id,
      version: null,
      settings: parsed.data,
      customVariables: {},
      query,
      signal,
    });
    if (c.instructions) instructions.push(c.instructions);
    tools.push(...(c.tools ?? []));
  }
  // Names are unique among a step's tools (the first keeps its name).
  const seen = new Set<string>();
  return { tools: tools.filter((x) => !seen.has(x.name) && seen.add(x.name)), instructions };
}
