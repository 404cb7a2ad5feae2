// The one outbound client every plugin, MCP and HTTP-node call goes through: refused addresses never see
// a connection, redirects are checked hop by hop, bodies are bounded.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, OutboundRefused } from '../src/outbound.ts';

const listen = <S extends Server | TcpServer>(s: S, host: string) =>
  new Promise<number>((r) => s.listen(0, host, () => r((s.address() as { port: number }).port)));

describe('the outbound client', () => {
  // A bare TCP listener on loopback counts connection attempts: a refusal must come before any.
  let connections = 0;
  const trap = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  let trapPort = 0;
  // 127.0.0.2 is allowed by the test's allow-list and redirects to the trap or elsewhere.
  const front = createServer((req, res) => {
    if (req.url?.startsWith('/to-loopback'))
      return res.writeHead(302, { location: `http://127.0.0.1:${trapPort}/` }).end();
    if (req.url?.startsWith('/loop')) return res.writeHead(302, { location: '/loop' }).end();
    if (req.url?.startsWith('/see-other')) return res.writeHead(303, { location: '/echo' }).end();
    if (req.url?.startsWith('/big')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 64; i++) res.write('x'.repeat(1024));
      return res.end();
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null }));
  });
  let frontPort = 0;
  beforeAll(async () => {
    trapPort = await listen(trap, '0.0.0.0');
    frontPort = await listen(front, '127.0.0.2');
  });
  afterAll(() => {
    trap.close();
    front.close();
  });
  const fetchGuarded = guardedFetch(() => false, { maxRedirects: 3, maxBytes: 16 * 1024, allow: ['127.0.0.2'] });

  const refused = async (url: string) => {
    const before = connections;
    await expect(fetchGuarded(url, { timeoutMs: 3000 })).rejects.toBeInstanceOf(OutboundRefused);
    expect(connections, url).toBe(before);
  };

  it('refuses loopback, 0.0.0.0, IPv4-mapped IPv6 and the decimal, hex and octal forms of 127.0.0.1 without connecting', async () => {
    for (const host of [
      '127.0.0.1',
      '0.0.0.0',
      '[::ffff:127.0.0.1]',
      '[::1]',
      '2130706433',
      '0x7f000001',
      '0x7f.0.0.1',
      '017700000001',
      '127.1',
    ])
      await refused(`http://${host}:${trapPort}/`);
  });

  it('refuses a name that resolves to loopback, at the connection (the address checked is the one connected to)', async () => {
    await refused(`http://localhost:${trapPort}/`);
  });

  it('refuses a redirect to loopback, and follows at most the configured number of redirects', async () => {
    await refused(`http://127.0.0.2:${frontPort}/to-loopback`);
    await expect(fetchGuarded(`http://127.0.0.2:${frontPort}/loop`)).rejects.toThrow('More than 3 redirects');
  });

  it('continues a 303 as GET and drops credentials on the way to another origin', async () => {
    const res = await fetchGuarded(`http://127.0.0.2:${frontPort}/see-other`, {
      method: 'POST',
      body: 'x',
      headers: { authorization: 'Bearer k' },
    });
    expect(await res.json()).toEqual({ method: 'GET', auth: 'Bearer k' });
  });

  it('stops reading a body past the size limit', async () => {
    const res = await fetchGuarded(`http://127.0.0.2:${frontPort}/big`);
    await expect(res.text()).rejects.toThrow(/larger than 16384 bytes/);
    const ok = await fetchGuarded(`http://127.0.0.2:${frontPort}/echo`);
    expect(ok.status).toBe(200);
  });

  it('reaches private addresses when the configuration allows them', async () => {
    const open = guardedFetch(() => true);
    const before = connections;
    await expect(open(`http://127.0.0.1:${trapPort}/`, { timeoutMs: 2000 })).rejects.toThrow();
    expect(connections).toBe(before + 1);
  });
});
