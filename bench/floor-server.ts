// The floor for `./tessera bench engine`: a plain Fastify handler doing the 5-node flow's work in one function.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/v1/workflow/run', async (req) => {
  const { parameters } = req.body as { parameters: { name?: string } };
  const name = parameters?.name ?? '';
  const greeting = `Hello, ${name}`;
  const message = name.length > 0 ? `${greeting}!` : 'Hello, stranger!';
  return { code: 0, msg: '', data: JSON.stringify({ message }), execute_id: '0' };
});
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
