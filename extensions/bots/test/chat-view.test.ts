import { describe, expect, it } from 'vitest';
import { expandShortcut, turnsOf, type ChatMessage } from '../src/client/chat/types.ts';

const m = (id: string, chat_id: string, type: string, content = id, section_id = 's1'): ChatMessage => ({
  id,
  chat_id,
  type,
  content,
  section_id,
  conversation_id: 'c',
  role: type === 'question' ? 'user' : 'assistant',
  created_at: 0,
});

describe('the chat view', () => {
  it('groups a turn: question, tool steps, answer and suggested questions; messages without a chat stand alone', () => {
    const turns = turnsOf(
      [
        m('q1', 'a', 'question'),
        m('f1', 'a', 'function_call'),
        m('t1', 'a', 'tool_response'),
        m('a1', 'a', 'answer'),
        m('u1', 'a', 'follow_up'),
        m('x', '', 'question'),
      ],
      {},
    );
    expect(turns).toHaveLength(2);
    expect(turns[0]).toMatchObject({ chatId: 'a', question: { id: 'q1' }, answer: { id: 'a1' } });
    expect(turns[0].steps.map((s) => s.id)).toEqual(['f1', 't1']);
    expect(turns[0].followUps.map((s) => s.id)).toEqual(['u1']);
    expect(turns[1].question!.id).toBe('x');
  });

  it('expands a shortcut command with what follows it', () => {
    const shortcuts = [
      {
        id: '1',
        command: '/weather',
        name: 'Weather',
        description: '',
        query_template: 'What is the weather in {{text}}?',
      },
    ];
    expect(expandShortcut('/weather Oslo', shortcuts)).toBe('What is the weather in Oslo?');
    expect(expandShortcut('/unknown Oslo', shortcuts)).toBe('/unknown Oslo');
    expect(expandShortcut('hello', shortcuts)).toBe('hello');
  });
});
