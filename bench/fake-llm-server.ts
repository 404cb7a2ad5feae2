// The fake OpenAI-compatible model server in a process of its own (the chat benchmark at load: a thousand
// streams must not share a thread with the clients measuring them). Every answer is the same paced text.
// argv: chunk delay in ms, number of chunks. Prints its URL.
import { startFakeLlm } from '../tests/fixtures/fake-llm.ts';

const delay = Number(process.argv[2] ?? 200);
const chunks = Number(process.argv[3] ?? 10);
const llm = await startFakeLlm({
  fallback: { text: 'word'.repeat(chunks), chunkSize: 4, chunkDelayMs: delay },
  record: false,
});
console.log(llm.url);
