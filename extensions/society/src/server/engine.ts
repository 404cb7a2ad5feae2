// A process runs one turn per background job: the host picks who speaks (or ends it), an agent role answers with its
// model (its persona, the society's description and variables, the transcript, its own notes), a person's role waits
// for their reply; after each turn the stop keyword and the round limit are checked and the next turn is queued while
// the process runs. Paused or stopped processes take no turn; what was said stays. Pages follow it live. The host's
// choices (host.ts) load with the first turn.
import { describeError } from '@tessera/sdk';
import { BroadcastService, JobQueueService, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { BotChatsService } from '@tessera/ext-bots/shared';
import type { RoleView } from '../shared/api.ts';
import type { Choice, Said } from './host.ts';
import { json, type MessageRow, type ProcessConfig, type ProcessRow, SocietyStore } from './store.ts';
import { texts, type HostText } from './texts.ts';

export const STEP_JOB = 'society.step';
/** Where a process's messages and changes are told (BroadcastService). */
export const processChannel = (processId: string) => `society.process.${processId}`;
/** A role's private notes: lines of its messages starting with [note] (kept from the others, shown to it later). */
const NOTE = /^\s*\[note\]\s*(.+)$/gim;
/** A variable a role changes: a line `[set name = value]` (everyone knows the new value from then on). */
const SET = /^\s*\[set\s+([\p{L}\p{N}_ .-]{1,64}?)\s*=\s*(.*?)\]\s*$/gimu;

export class Engine {
  static readonly inject = [ServerContextToken, SocietyStore] as const;
  readonly #ctx: ServerContext;
  readonly #store: SocietyStore;

  constructor(ctx: ServerContext, store: SocietyStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  async queue(processId: string): Promise<void> {
    await this.#ctx.service(JobQueueService).enqueue(STEP_JOB, { process_id: processId });
  }

  /**
   * Pages following the process are told rows (in whichever studio process they are: a turn may run on a worker);
   * each renders them in its reader's language.
   */
  #tell(p: ProcessRow) {
    this.#ctx.service(BroadcastService).publish(processChannel(p.id), { process: p });
  }
  #said(processId: string, m: MessageRow) {
    this.#ctx.service(BroadcastService).publish(processChannel(processId), { message: m });
  }

  async set(p: ProcessRow, set: Partial<ProcessRow>): Promise<ProcessRow> {
    await this.#store.setProcess(p.id, set);
    const next = { ...p, ...set };
    this.#tell(next);
    return next;
  }

  async #end(p: ProcessRow, status: 'finished' | 'failed', why: HostText): Promise<void> {
    const m = await this.#store.addMessage({
      process_id: p.id,
      round: Number(p.round),
      role_id: '',
      role_name: '',
      kind: 'host',
      content: texts.text(why.key, why.params, 'en-US'),
      text: JSON.stringify(why),
    });
    this.#said(p.id, m);
    await this.set(p, {
      status,
      end_reason: texts.text(why.key, why.params, 'en-US'),
      end_text: JSON.stringify(why),
      waiting_role_id: '',
    });
  }

  async #choose(
    cfg: ProcessConfig,
    p: ProcessRow,
    said: { role_id: string; role_name: string; content: string }[],
  ): Promise<Choice> {
    const { byRoundRobin, byRules, hostPrompt, modelChose, modelUnusable, readHostAnswer, transcript } =
      await import('./host.ts');
    const roles = cfg.roles;
    const last = said.at(-1)?.role_id;
    if (cfg.host.mode === 'round_robin') return byRoundRobin(roles, last);
    if (cfg.host.mode === 'rules') return byRules(cfg.host, roles, last);
    const models = this.#ctx.service(ModelsService);
    const model = await models.get(p.space_id, cfg.host.model_id);
    const { generateText } = await import('ai');
    const r = await generateText({
      model: await model.chat(),
      system: hostPrompt(cfg.host, roles, cfg.stop.condition),
      messages: [{ role: 'user', content: transcript(p.topic, said) }],
      temperature: 0,
      maxRetries: 1,
    });
    await models
      .recordUsage({
        space_id: p.space_id,
        model_id: model.model_id,
        input_tokens: r.usage?.inputTokens ?? 0,
        output_tokens: r.usage?.outputTokens ?? 0,
        source: 'society',
      })
      .catch(() => undefined);
    const answer = readHostAnswer(r.text, roles);
    if (answer.stop)
      return {
        stop: answer.reason
          ? { key: 'endHost', params: { reason: answer.reason } }
          : { key: 'endHostPlain', params: {} },
      };
    if (answer.role) return { role: answer.role, why: modelChose(answer.role, answer.reason) };
    return modelUnusable(roles, last);
  }

  /** One turn of a running process (a background job). */
  async step(processId: string): Promise<void> {
    let p = await this.#store.findProcess(processId);
    if (!p || p.status !== 'running') return;
    const cfg = json<ProcessConfig>(p.config, {} as ProcessConfig);
    try {
      if (Number(p.round) >= cfg.stop.max_rounds)
        return await this.#end(p, 'finished', { key: 'endLimit', params: { max: String(cfg.stop.max_rounds) } });
      const all = await this.#store.messages(p.id);
      const said = all.filter((m) => m.kind !== 'host');
      const choice = await this.#choose(cfg, p, said);
      // Paused or stopped while the host thought: nothing more this turn.
      p = await this.#store.findProcess(processId);
      if (!p || p.status !== 'running') return;
      if ('stop' in choice) return await this.#end(p, 'finished', choice.stop);
      const role = choice.role;
      const hostNote = await this.#store.addMessage({
        process_id: p.id,
        round: Number(p.round) + 1,
        role_id: role.role_id,
        role_name: role.name,
        kind: 'host',
        content: texts.text(choice.why.key, choice.why.params, 'en-US'),
        text: JSON.stringify(choice.why),
      });
      this.#said(p.id, hostNote);
      if (role.kind === 'human') {
        await this.set(p, { status: 'waiting_human', waiting_role_id: role.role_id });
        return;
      }
      const content = await this.#speak(cfg, p, role.role_id, said);
      await this.said(p, role.role_id, role.name, 'agent', content);
    } catch (e) {
      const fresh = await this.#store.findProcess(processId);
      if (fresh) await this.#end(fresh, 'failed', { key: 'endFailed', params: { detail: describeError(e) } });
    }
  }

  /** A role's message (an agent's or a person's): saved, its notes kept, then the stop checks and the next turn. */
  async said(
    p: ProcessRow,
    roleId: string,
    roleName: string,
    kind: 'agent' | 'human',
    text: string,
  ): Promise<ProcessRow> {
    const notes = json<Record<string, string[]>>(p.notes, {});
    const mine = [...text.matchAll(NOTE)].map((m) => m[1].trim());
    if (mine.length) notes[roleId] = [...(notes[roleId] ?? []), ...mine].slice(-50);
    const sets = [...text.matchAll(SET)].map((m) => ({ name: m[1].trim(), value: m[2].trim().slice(0, 2000) }));
    const content = text.replace(NOTE, '').replace(SET, '').trim();
    const round = Number(p.round) + 1;
    if (sets.length) p = await this.#setVariables(p, round, roleName, sets);
    const m = await this.#store.addMessage({
      process_id: p.id,
      round,
      role_id: roleId,
      role_name: roleName,
      kind,
      content,
      text: '',
    });
    this.#said(p.id, m);
    let next = await this.set(p, { round, notes: JSON.stringify(notes), status: 'running', waiting_role_id: '' });
    const cfg = json<ProcessConfig>(p.config, {} as ProcessConfig);
    if (cfg.stop.keyword && content.toLowerCase().includes(cfg.stop.keyword.toLowerCase())) {
      await this.#end(next, 'finished', { key: 'endKeyword', params: { keyword: cfg.stop.keyword } });
      return { ...next, status: 'finished' };
    }
    // Paused meanwhile: it stays paused.
    const now = await this.#store.findProcess(p.id);
    if (now && now.status !== 'running') return now;
    next = now ?? next;
    await this.queue(p.id);
    return next;
  }

  /** Variables a role changed: kept in the process's copy of the society, each change said by the host. */
  async #setVariables(
    p: ProcessRow,
    round: number,
    roleName: string,
    sets: { name: string; value: string }[],
  ): Promise<ProcessRow> {
    const cfg = json<ProcessConfig>(p.config, {} as ProcessConfig);
    const variables = [...(cfg.variables ?? [])];
    for (const v of sets) {
      const i = variables.findIndex((x) => x.name === v.name);
      if (i >= 0) variables[i] = v;
      else if (variables.length < 50) variables.push(v);
      else continue;
      const why: HostText = { key: 'varSet', params: { role: roleName, name: v.name, value: v.value } };
      const m = await this.#store.addMessage({
        process_id: p.id,
        round,
        role_id: '',
        role_name: '',
        kind: 'host',
        content: texts.text(why.key, why.params, 'en-US'),
        text: JSON.stringify(why),
      });
      this.#said(p.id, m);
    }
    const config = JSON.stringify({ ...cfg, variables });
    await this.#store.setProcess(p.id, { config });
    return { ...p, config };
  }

  async #speak(
    cfg: ProcessConfig,
    p: ProcessRow,
    roleId: string,
    said: { role_id: string; role_name: string; content: string }[],
  ): Promise<string> {
    const role = cfg.roles.find((r) => r.role_id === roleId)!;
    if (role.kind === 'bot') return this.#botSpeaks(cfg, p, role, said);
    const modelId = role.model_id || cfg.host.model_id;
    const models = this.#ctx.service(ModelsService);
    const model = await models.get(p.space_id, modelId);
    const notes = json<Record<string, string[]>>(p.notes, {})[roleId] ?? [];
    const { generateText } = await import('ai');
    const { transcript } = await import('./host.ts');
    const system = [
      `You are ${role.name}, one of the roles of "${cfg.name}".`,
      cfg.description,
      role.persona,
      cfg.variables.length
        ? `Facts everyone knows:\n${cfg.variables.map((v) => `${v.name}: ${v.value}`).join('\n')}`
        : '',
      notes.length ? `Your private notes (only you see them):\n${notes.map((n) => `- ${n}`).join('\n')}` : '',
      'Speak as yourself, briefly. A line starting with [note] is kept as a private note for you, not said aloud; ' +
        'a line [set name = value] changes a fact everyone knows.',
    ]
      .filter(Boolean)
      .join('\n\n');
    const r = await generateText({
      model: await model.chat(),
      system,
      messages: [{ role: 'user', content: `${transcript(p.topic, said)}\n\nIt is your turn, ${role.name}.` }],
      temperature: model.default_params.temperature,
      maxOutputTokens: model.default_params.max_tokens,
      maxRetries: 1,
    });
    await models
      .recordUsage({
        space_id: p.space_id,
        model_id: model.model_id,
        input_tokens: r.usage?.inputTokens ?? 0,
        output_tokens: r.usage?.outputTokens ?? 0,
        source: 'society',
      })
      .catch(() => undefined);
    return r.text;
  }

  /**
   * A published bot speaks for its role: through the API channel, in one conversation per process (started by the
   * person who started the process), given what was said since it last spoke.
   */
  async #botSpeaks(cfg: ProcessConfig, p: ProcessRow, role: RoleView, said: Said[]): Promise<string> {
    const chats = this.#ctx.optionalService(BotChatsService);
    if (!chats) throw texts.error(400, 'botsOff');
    const conversations = json<Record<string, string>>(p.bot_conversations ?? '{}', {});
    const { transcript } = await import('./host.ts');
    const last = said.map((m) => m.role_id).lastIndexOf(role.role_id);
    const since = said.slice(last + 1);
    const message =
      last < 0
        ? `You are ${role.name}, one of the roles of "${cfg.name}". ${cfg.description}\n\n${transcript(p.topic, said)}\n\nIt is your turn.`
        : `${since.map((m) => `${m.role_name}: ${m.content}`).join('\n\n')}\n\nIt is your turn.`;
    const { chat_id, conversation_id } = await chats.startPublished({
      botId: role.bot_id,
      userId: p.started_by,
      endUserId: `society:${p.id}`,
      message,
      conversationId: conversations[role.role_id],
      logId: this.#ctx.host.newId(),
    });
    if (!conversations[role.role_id]) {
      conversations[role.role_id] = conversation_id;
      await this.#store.setProcess(p.id, { bot_conversations: JSON.stringify(conversations) });
      p.bot_conversations = JSON.stringify(conversations);
    }
    const failed: string[] = [];
    await chats.stream(
      chat_id,
      {
        send: (event, data) => {
          if (event === 'conversation.chat.failed')
            failed.push((data as { last_error?: { msg?: string } })?.last_error?.msg ?? '');
        },
        close: () => undefined,
        closed: false,
      },
      new AbortController().signal,
    );
    if (failed.length) throw texts.error(400, 'botFailed', { role: role.name, detail: failed[0] });
    return (await chats.exchange(conversation_id, chat_id))?.answer ?? '';
  }
}
