// Coze's realtime voice chat over WebSocket (`@coze/api` `websockets.chat`, `/v1/chat?bot_id=`): the caller's speech
// (base64 PCM, `input_audio_buffer.append`, then `.complete`) is transcribed (`conversation.audio_transcript.*`), or a
// text message (`conversation.message.create`) sent; the published bot answers as through /v3/chat (its events
// forwarded as they come) and each sentence of the answer is spoken as soon as it is written
// (`conversation.audio.delta`, base64 PCM, then `conversation.audio.completed`). A new question, or
// `conversation.chat.cancel`, interrupts the answer (`conversation.chat.canceled`).
import { messageOf } from '@tessera/sdk';
import type { Caller, ServerContext, SocketConnection } from '@tessera/sdk/server';
import { BotChatsService, BotsService } from '@tessera/ext-bots/shared';
import { AudioService, type BotVoice } from '@tessera/ext-audio/shared';

interface ClientEvent {
  id?: string;
  event_type?: string;
  data?: Record<string, any>;
}
/** The end of a sentence: what is written up to it can be spoken. */
const SENTENCE = /[.!?。！？\n](\s|$)/;
const MAX_BUFFER = 25 * 1024 * 1024;

/** One connection's voice chat with a bot. */
export async function voiceChat(
  ctx: ServerContext,
  conn: SocketConnection,
  req: { caller?: Caller; query: { bot_id: string }; logId: string },
): Promise<void> {
  await new VoiceChat(ctx, conn, req.caller!, req.query.bot_id, req.logId).open();
}

class VoiceChat {
  readonly #ctx: ServerContext;
  readonly #conn: SocketConnection;
  readonly #caller: Caller;
  readonly #botId: string;
  readonly #logId: string;
  #spaceId = '';
  #voice: BotVoice | undefined;
  #config: { user_id: string; conversation_id: string; meta_data: Record<string, string> } = {
    user_id: '',
    conversation_id: '',
    meta_data: {},
  };
  #input = { format: 'pcm', codec: 'pcm', sample_rate: 24000, channel: 1, bit_depth: 16 };
  #output = { codec: 'pcm', pcm_config: { sample_rate: 24000 }, speech_rate: 0, voice_id: '' };
  #audio: Buffer[] = [];
  #bytes = 0;
  /** The answer being given: stopping it interrupts the chat and its speech. */
  #current: AbortController | undefined;

  constructor(ctx: ServerContext, conn: SocketConnection, caller: Caller, botId: string, logId: string) {
    this.#ctx = ctx;
    this.#conn = conn;
    this.#caller = caller;
    this.#botId = botId;
    this.#logId = logId;
  }

  #say(event_type: string, data?: unknown) {
    this.#conn.send({
      id: this.#ctx.host.newId(),
      event_type,
      ...(data !== undefined ? { data } : {}),
      detail: { logid: this.#logId },
    });
  }
  #fail(msg: string, code = 4000) {
    this.#say('error', { code, msg });
  }

  async open() {
    const bots = this.#ctx.service(BotsService);
    const bot = await bots.get(this.#botId);
    if (!bot) {
      this.#fail(`There is no bot ${this.#botId}.`, 4004);
      return this.#conn.close(1008, 'no bot');
    }
    if (
      this.#caller.kind === 'token' &&
      this.#caller.tokenAllows &&
      !this.#caller.tokenAllows('bot.chat', bot.space_id)
    ) {
      this.#fail(`This access token lacks the permission 'bot.chat' in space ${bot.space_id}.`, 4003);
      return this.#conn.close(1008, 'forbidden');
    }
    this.#spaceId = bot.space_id;
    const raw = await bots.skillSettings(this.#botId, 'voice', 'published');
    this.#voice = raw as BotVoice | undefined;
    this.#output.voice_id = this.#voice?.voice_id ?? '';
    this.#config.user_id = this.#caller.userId;
    this.#say('chat.created');
    this.#conn.onMessage((text) => this.#on(text));
    this.#conn.signal.addEventListener('abort', () => this.#current?.abort());
  }

  async #on(text: string) {
    let e: ClientEvent;
    try {
      e = JSON.parse(text) as ClientEvent;
    } catch {
      return this.#fail('Send JSON events with an event_type.');
    }
    const d = e.data ?? {};
    switch (e.event_type) {
      case 'chat.update': {
        const c = d.chat_config ?? {};
        if (typeof c.user_id === 'string' && c.user_id) this.#config.user_id = c.user_id;
        if (typeof c.conversation_id === 'string') this.#config.conversation_id = c.conversation_id;
        if (c.meta_data && typeof c.meta_data === 'object') this.#config.meta_data = c.meta_data;
        if (d.input_audio) {
          if (
            (d.input_audio.codec && d.input_audio.codec !== 'pcm') ||
            (d.input_audio.bit_depth && d.input_audio.bit_depth !== 16)
          )
            return this.#fail('This studio hears 16-bit PCM over WebSocket.');
          Object.assign(this.#input, d.input_audio);
        }
        if (d.output_audio) {
          if (d.output_audio.codec && d.output_audio.codec !== 'pcm')
            return this.#fail('This studio speaks PCM over WebSocket.');
          Object.assign(this.#output, d.output_audio, {
            pcm_config: {
              sample_rate: Number(d.output_audio.pcm_config?.sample_rate ?? this.#output.pcm_config.sample_rate),
            },
          });
        }
        return this.#say('chat.updated', {
          chat_config: { ...this.#config },
          input_audio: this.#input,
          output_audio: this.#output,
          turn_detection: { type: 'client_interrupt' },
        });
      }
      case 'input_audio_buffer.append': {
        const chunk = Buffer.from(String(d.delta ?? ''), 'base64');
        this.#bytes += chunk.length;
        if (this.#bytes > MAX_BUFFER) {
          this.#audio = [];
          this.#bytes = 0;
          return this.#fail('The audio buffer is full (25 MB): complete it sooner.');
        }
        this.#audio.push(chunk);
        return;
      }
      case 'input_audio_buffer.clear':
        this.#audio = [];
        this.#bytes = 0;
        return this.#say('input_audio_buffer.cleared');
      case 'input_audio_buffer.complete': {
        this.#say('input_audio_buffer.completed');
        const pcm = Buffer.concat(this.#audio);
        this.#audio = [];
        this.#bytes = 0;
        let heard: string;
        try {
          heard = (
            await this.#ctx.service(AudioService).transcribe({
              spaceId: this.#spaceId,
              audio: pcm,
              fileName: 'speech.pcm',
              pcm: { sampleRate: Number(this.#input.sample_rate), channels: Number(this.#input.channel) },
              language: this.#voice?.language || undefined,
              signal: this.#conn.signal,
            })
          ).text;
        } catch (err) {
          return this.#fail(messageOf(err));
        }
        this.#say('conversation.audio_transcript.update', { content: heard });
        this.#say('conversation.audio_transcript.completed', { content: heard });
        if (heard.trim()) void this.#ask(heard);
        return;
      }
      case 'conversation.message.create': {
        const content = typeof d.content === 'string' ? d.content : '';
        if (!content.trim()) return this.#fail('Send the message’s content.');
        void this.#ask(content);
        return;
      }
      case 'conversation.chat.cancel':
        if (this.#current) {
          this.#current.abort();
          this.#current = undefined;
          this.#say('conversation.chat.canceled');
        }
        return;
      case 'conversation.clear':
        this.#config.conversation_id = '';
        return this.#say('conversation.cleared');
      default:
        return this.#fail(`Unknown event ${e.event_type}.`);
    }
  }

  /** The bot answers the question; each sentence of its answer is spoken as soon as it is written. */
  async #ask(question: string) {
    // A new question interrupts the answer still being given.
    if (this.#current) {
      this.#current.abort();
      this.#say('conversation.chat.canceled');
    }
    const current = new AbortController();
    this.#current = current;
    const chats = this.#ctx.service(BotChatsService);
    let started: { chat_id: string; conversation_id: string };
    try {
      started = await chats.startPublished({
        botId: this.#botId,
        userId: this.#caller.userId,
        endUserId: this.#config.user_id || this.#caller.userId,
        message: question,
        conversationId: this.#config.conversation_id || undefined,
        logId: this.#logId,
      });
    } catch (err) {
      return this.#fail(messageOf(err));
    }
    this.#config.conversation_id = started.conversation_id;
    let pending = '';
    let answer: Record<string, unknown> | undefined;
    let speaking = Promise.resolve();
    const speak = (text: string) => {
      if (!text.trim()) return;
      speaking = speaking.then(() => this.#speak(text, answer ?? {}, current.signal));
    };
    await chats.stream(
      started.chat_id,
      {
        send: (event, data) => {
          if (current.signal.aborted || event === 'done') return;
          const m = data as Record<string, any>;
          if (event === 'conversation.chat.completed' || event === 'conversation.chat.failed') {
            speak(pending);
            pending = '';
            speaking = speaking.then(() => {
              if (!current.signal.aborted && answer)
                this.#say('conversation.audio.completed', { ...answer, content_type: 'audio', content: '' });
              if (!current.signal.aborted) this.#say(event, m);
            });
            return;
          }
          this.#say(event, m);
          if (event === 'conversation.message.delta' && m?.type === 'answer') {
            answer ??= {
              id: m.id,
              conversation_id: m.conversation_id,
              chat_id: m.chat_id,
              bot_id: m.bot_id,
              role: 'assistant',
              type: 'answer',
              meta_data: {},
            };
            pending += String(m.content ?? '');
            const cut = lastSentenceEnd(pending);
            if (cut > 0) {
              speak(pending.slice(0, cut));
              pending = pending.slice(cut);
            }
          }
        },
        close: () => undefined,
        closed: false,
      },
      current.signal,
    );
    await speaking;
    if (this.#current === current) this.#current = undefined;
  }

  async #speak(text: string, message: Record<string, unknown>, signal: AbortSignal) {
    if (signal.aborted) return;
    try {
      const rate = Number(this.#output.speech_rate) || 0;
      const r = await this.#ctx.service(AudioService).speak({
        spaceId: this.#spaceId,
        voiceId: this.#output.voice_id || undefined,
        text: text.slice(0, 1024),
        format: 'pcm',
        speed: Math.max(0.5, Math.min(2, 1 + rate / 100)),
        sampleRate: this.#output.pcm_config.sample_rate,
        signal,
      });
      if (signal.aborted) return;
      this.#say('conversation.audio.sentence_start', { text });
      const step = Math.max(2, Math.round(this.#output.pcm_config.sample_rate / 10) * 2);
      for (let i = 0; i < r.audio.length && !signal.aborted; i += step)
        this.#say('conversation.audio.delta', {
          ...message,
          content_type: 'audio',
          content: r.audio.subarray(i, i + step).toString('base64'),
        });
    } catch (err) {
      if (!signal.aborted) this.#fail(messageOf(err));
    }
  }
}

/** Where the last whole sentence of the text ends (0: none yet). */
function lastSentenceEnd(text: string): number {
  let end = 0;
  for (let i = 0; i < text.length; i++) if (SENTENCE.test(text.slice(i, i + 2))) end = i + 1;
  return end;
}
