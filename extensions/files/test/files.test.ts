import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { SpacesService } from '@tessera/ext-spaces/shared';
import files from '../src/server/index.ts';
import { FileKind, FilesService, type Files } from '../src/shared/index.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const packageDir = path.resolve(import.meta.dirname, '..');
const spaces = {
  personalSpaceOf: async (u: string) => `p-${u}`,
  spacesOf: async (u: string) => [`p-${u}`, ...(u === 'bob' ? ['s2'] : ['s1'])],
  roleOf: async (s: string, u: string) => (s === 's1' || s === `p-${u}` ? 1 : undefined),
};

/** A multipart body as a browser or @coze/api would send it. */
export async function multipart(parts: { name: string; data: Uint8Array | string; field?: string }[]) {
  const form = new FormData();
  for (const p of parts)
    form.append(p.field ?? 'file', new Blob([typeof p.data === 'string' ? p.data : new Uint8Array(p.data)]), p.name);
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } };
}

function tester(config: Record<string, unknown> = {}) {
  return createExtensionTester(files, {
    packageDir,
    config,
    stubs: [{ id: 'identity' }, { id: 'spaces', services: [[SpacesService, spaces]] }],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
}

async function upload(t: ExtensionTester, parts: Parameters<typeof multipart>[0], space = 's1', as = 'ann') {
  const m = await multipart(parts);
  return t.request({
    method: 'POST',
    url: `/api/files/upload?space_id=${space}`,
    body: m.body,
    headers: m.headers,
    as,
  });
}

let t: ExtensionTester;
beforeAll(async () => {
  t = await tester({ maxFileBytes: 64 * 1024, spaceQuotaBytes: 100 * 1024 });
});
afterAll(() => t.close());

describe('files', () => {
  it('stores uploads typed by their content and serves them back through a signed URL only', async () => {
    const r = await upload(t, [
      { name: 'notes.txt', data: 'hello 世界' },
      { name: 'dot.png', data: PNG },
    ]);
    expect(r.status).toBe(200);
    const [txt, png] = r.body.data.files;
    expect(txt).toMatchObject({
      file_name: 'notes.txt',
      mime: 'text/plain',
      ext: 'txt',
      kind: FileKind.Document,
      bytes: Buffer.byteLength('hello 世界'),
    });
    expect(png).toMatchObject({ file_name: 'dot.png', mime: 'image/png', kind: FileKind.Image, bytes: PNG.length });
    const url = new URL(png.url);
    const got = await t.request({ url: url.pathname + url.search });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    const forged = await t.request({ url: `${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${'A'.repeat(43)}` });
    expect(forged.status).toBe(403);
    const old = await t.request({ url: `${url.pathname}?exp=1000&sig=${url.searchParams.get('sig')}` });
    expect(old.status).toBe(403);
    const svc = t.server.host.container.get<Files>(FilesService.symbol);
    expect((await svc.read(txt.id)).toString()).toBe('hello 世界');
    expect((await svc.resolve(txt.id, 's1')).url).toContain(`/api/files/content/${txt.id}?`);
    await expect(svc.resolve(txt.id, 's2')).rejects.toThrow('belongs to another space');
    expect((await svc.resolve('https://example.com/a.pdf', 's2')).url).toBe('https://example.com/a.pdf');
  });

  it('refuses a name that lies about the content, programs, and files over the size limit or the quota, keeping nothing', async () => {
    const before = (await t.call('POST', '/api/files/list', { space_id: 's1' }, 'ann')).total;
    const lie = await upload(t, [{ name: 'report.pdf', data: 'just text' }]);
    expect(lie.status).toBe(400);
    expect(lie.body.msg).toContain('"report.pdf" is named as .pdf but its content is not PDF');
    const png = await upload(t, [{ name: 'photo.jpg', data: PNG }]);
    expect(png.body.msg).toContain('its content is PNG');
    const exe = await upload(t, [
      { name: 'setup.txt', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]) },
    ]);
    expect(exe.status).toBe(400);
    const big = await upload(t, [{ name: 'big.txt', data: 'x'.repeat(65 * 1024) }]);
    expect(big.status).toBe(413);
    expect(big.body.msg).toContain('larger than 0.1 MB');
    await upload(t, [{ name: 'a.txt', data: 'a'.repeat(60 * 1024) }]);
    const over = await upload(t, [{ name: 'b.txt', data: 'b'.repeat(60 * 1024) }]);
    expect(over.status).toBe(413);
    expect(over.body.msg).toMatch(/This space has used .* of its 0.1 MB/);
    expect((await t.call('POST', '/api/files/list', { space_id: 's1' }, 'ann')).total).toBe(before + 1);
    expect(
      (await t.request({ method: 'POST', url: '/api/files/upload?space_id=s1', body: { a: 1 }, as: 'ann' })).body.msg,
    ).toContain('multipart/form-data');
  });

  it('holds the quota under concurrent uploads: the check and the record are one step, and deletes give room back', async () => {
    const q = await tester({ spaceQuotaBytes: 300 * 1024 });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => upload(q, [{ name: `p${i}.txt`, data: String(i).repeat(90 * 1024) }])),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(results.filter((r) => r.status === 413)).toHaveLength(5);
      const list = await q.call('POST', '/api/files/list', { space_id: 's1' }, 'ann');
      expect([list.total, list.used_bytes]).toEqual([3, 3 * 90 * 1024]);
      await q.call('POST', '/api/files/delete', { space_id: 's1', file_id: list.files[0].id }, 'ann');
      expect((await q.call('POST', '/api/files/list', { space_id: 's1' }, 'ann')).used_bytes).toBe(2 * 90 * 1024);
      expect((await upload(q, [{ name: 'again.txt', data: 'z'.repeat(90 * 1024) }])).status).toBe(200);
    } finally {
      await q.close();
    }
  });

  it("keeps spaces apart: another space's file is not found, not served, not deleted", async () => {
    const f = (await upload(t, [{ name: 'x.md', data: '# x' }])).body.data.files[0];
    expect(f.mime).toBe('text/markdown');
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/files/detail',
          body: { space_id: 's2', file_id: f.id },
          as: 'bob',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/files/delete',
          body: { space_id: 's1', file_id: f.id },
          as: 'bob',
        })
      ).status,
    ).toBe(403);
    expect((await upload(t, [{ name: 'y.txt', data: 'y' }], 's1', 'bob')).status).toBe(403);
    await t.call('POST', '/api/files/delete', { space_id: 's1', file_id: f.id }, 'ann');
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/files/detail',
          body: { space_id: 's1', file_id: f.id },
          as: 'ann',
        })
      ).status,
    ).toBe(404);
  });

  it('answers 503 naming the file store when it cannot be reached, and keeps nothing', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const t3 = await tester({
      store: 's3',
      s3: {
        bucket: 'studio',
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId: 'k',
        secretAccessKey: 's',
        maxAttempts: 1,
      },
    });
    try {
      const r = await upload(t3, [{ name: 'down.txt', data: 'the store is down' }]);
      expect(r.status).toBe(503);
      expect(r.body.msg).toMatch(/^The file store \(s3\) cannot be reached right now .*nothing was changed/);
      expect(await t3.call('POST', '/api/files/list', { space_id: 's1' }, 'ann')).toMatchObject({
        total: 0,
        used_bytes: 0,
      });
    } finally {
      await t3.close();
    }
  });

  it('keeps the bytes in an S3-compatible store when configured', async () => {
    // @ts-expect-error s3rver ships no types
    const { default: S3rver } = await import('s3rver');
    const dir = mkdtempSync(path.join(tmpdir(), 's3rver-'));
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'studio' }],
    });
    const { port } = (await s3.run()) as { port: number };
    const t3 = await tester({
      store: 's3',
      s3: {
        bucket: 'studio',
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        prefix: 'files/',
      },
    });
    try {
      const f = (await upload(t3, [{ name: 'in-s3.txt', data: 'kept in the bucket' }])).body.data.files[0];
      const url = new URL(f.url);
      expect((await t3.request({ url: url.pathname + url.search })).text).toBe('kept in the bucket');
      const listed = await fetch(`http://127.0.0.1:${port}/studio?list-type=2`).then((r) => r.text());
      expect(listed).toContain(`files/s1/${f.id}`);
      await t3.call('POST', '/api/files/delete', { space_id: 's1', file_id: f.id }, 'ann');
      expect(await fetch(`http://127.0.0.1:${port}/studio?list-type=2`).then((r) => r.text())).not.toContain(f.id);
    } finally {
      await t3.close();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
