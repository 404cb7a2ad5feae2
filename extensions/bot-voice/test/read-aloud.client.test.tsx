// Read aloud by itself: the answer just given is read once, and keeps its audio when the chat draws it anew (the
// turn re-read once it ends) while the speech is still on its way; the same answer is not read again when the chat
// is opened later.
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { defineExtension } from '@tessera/sdk/client';
import { renderExtension } from '@tessera/sdk/testing/client';
import { ReadAloud } from '../src/client/ReadAloud.tsx';

afterEach(cleanup);

/** The bot's voice reads by itself; the speech is answered when the test says so. */
function fakeServer() {
  let speeches = 0;
  let answer: (() => void) | undefined;
  const spoken = new Promise<void>((resolve) => (answer = resolve));
  const serve = (async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/api/bot_voice/draft'))
      return Response.json({
        code: 0,
        msg: '',
        data: { voice: { voice_id: 'espeak:en-us', language: 'en', autoplay: true } },
      });
    if (url.includes('/api/audio/speech')) {
      speeches++;
      await spoken;
      return new Response(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), { headers: { 'content-type': 'audio/mpeg' } });
    }
    return Response.json({ code: 404002, msg: 'no route' }, { status: 404 });
  }) as typeof fetch;
  return { fetch: serve, speeches: () => speeches, answer: () => answer?.() };
}

/** A chat's answer: drawn anew on "redraw" (a new view of the same message), or opened later (no longer fresh). */
function Answer() {
  const [view, setView] = useState(0);
  const [fresh, setFresh] = useState(true);
  return (
    <div>
      <button type="button" onClick={() => setView((v) => v + 1)}>
        redraw
      </button>
      <button
        type="button"
        onClick={() => {
          setFresh(false);
          setView((v) => v + 1);
        }}
      >
        reopen
      </button>
      <ReadAloud key={view} spaceId="s1" botId="b1" draft messageId="m1" text="Hello there" fresh={fresh} />
    </div>
  );
}

it('keeps the audio of an answer read by itself when the answer is drawn anew, and reads it once', async () => {
  const server = fakeServer();
  await renderExtension(
    defineExtension({ id: 'chat', register: (ctx) => ctx.route({ path: '/', component: Answer }) }),
    { fetch: server.fetch },
  );
  await screen.findByTestId('chat-read-aloud');
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
  expect(server.speeches()).toBe(1);
  await act(async () => screen.getByText('redraw').click());
  await act(async () => server.answer());
  expect(await screen.findByTestId('chat-read-audio')).toBeTruthy();
  expect(server.speeches()).toBe(1);

  // Opened again later: shown, not read again, not played by itself.
  await act(async () => screen.getByText('reopen').click());
  await screen.findByTestId('chat-read-aloud');
  expect(screen.queryByTestId('chat-read-audio')).toBeNull();
  expect(server.speeches()).toBe(1);
});
