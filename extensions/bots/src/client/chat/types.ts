/** A message as the chat calls return it (Coze's ChatV3Message). */
export interface ChatMessage {
  id: string;
  conversation_id: string;
  chat_id: string;
  section_id: string;
  role: 'user' | 'assistant';
  type: string;
  content: string;
  /** text, object_string or card (an answer showing a tool's output). */
  content_type?: string;
  reasoning_content?: string;
  /** The open API's meta_data: on an answer, `agent_name` says which agent answered (a bot of several agents). */
  meta_data?: Record<string, string>;
  feedback?: 'like' | 'dislike';
  created_at: number;
}

export interface ChatDetail {
  id: string;
  conversation_id: string;
  section_id: string;
  status: string;
  usage?: { token_count: number; input_count: number; output_count: number };
  last_error?: { code: number; msg: string };
  created_at: number;
  completed_at?: number;
  failed_at?: number;
}

export interface Onboarding {
  prologue: string;
  suggested_questions: string[];
}

export interface Shortcut {
  id: string;
  command: string;
  name: string;
  description: string;
  query_template: string;
}

/** One turn on screen: the question, the tool steps, the answer and the suggested questions. */
export interface Turn {
  chatId: string;
  sectionId: string;
  question?: ChatMessage;
  steps: ChatMessage[];
  /** Answers that show a tool's output (a card, or its text): meta_data.tool_output names the tool. */
  outputs: ChatMessage[];
  answer?: ChatMessage;
  followUps: ChatMessage[];
  chat?: ChatDetail;
}

/** Puts a message where its turn shows it. */
export function place(t: Turn, m: ChatMessage): void {
  if (m.type === 'question') t.question = m;
  else if (m.type === 'answer' && m.meta_data?.tool_output) t.outputs.push(m);
  else if (m.type === 'answer') t.answer = m;
  else if (m.type === 'function_call' || m.type === 'tool_response') t.steps.push(m);
  else if (m.type === 'follow_up') t.followUps.push(m);
}

/** Groups messages (oldest first) into turns by chat. */
export function turnsOf(messages: ChatMessage[], chats: Record<string, ChatDetail>): Turn[] {
  const turns: Turn[] = [];
  const byChat = new Map<string, Turn>();
  for (const m of messages) {
    const key = m.chat_id || `m${m.id}`;
    let t = byChat.get(key);
    if (!t) {
      t = { chatId: m.chat_id, sectionId: m.section_id, steps: [], outputs: [], followUps: [], chat: chats[m.chat_id] };
      byChat.set(key, t);
      turns.push(t);
    }
    place(t, m);
  }
  return turns;
}

/** Expands a shortcut command typed at the start of a message: "/weather Oslo" with "Weather in {{text}}". */
export function expandShortcut(text: string, shortcuts: Shortcut[]): string {
  const m = /^(\/[\p{L}\p{N}_-]+)(?:\s+([\s\S]*))?$/u.exec(text.trim());
  if (!m) return text;
  const s = shortcuts.find((x) => x.command === m[1]);
  return s ? s.query_template.replace(/\{\{\s*text\s*\}\}/g, m[2] ?? '') : text;
}
