// Reads multipart/form-data uploads with busboy (loaded with the first upload): each file streams to
// `each` as it arrives; the first failure answers at once.
import { describeError } from '@tessera/core';
import { badRequest } from '../api.ts';
import type { ApiRequest } from './index.ts';

export async function receiveFiles<T>(
  req: ApiRequest,
  maxFiles: number,
  each: (fileName: string, stream: NodeJS.ReadableStream, fields: Record<string, string>) => Promise<T>,
): Promise<{ files: T[]; fields: Record<string, string> }> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data') || !req.stream)
    throw badRequest('Send the file as multipart/form-data, in a field named "file".');
  const { default: Busboy } = await import('busboy');
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      req.stream!.unpipe();
      req.stream!.resume();
      reject(e);
    };
    let bb: ReturnType<typeof Busboy>;
    try {
      bb = Busboy({
        headers: req.headers,
        limits: { files: maxFiles, fields: 50, fieldSize: 64 * 1024 },
        defParamCharset: 'utf8',
      });
    } catch (e) {
      throw badRequest(`The upload cannot be read: ${describeError(e)}.`);
    }
    const fields: Record<string, string> = {};
    const pending: Promise<T>[] = [];
    bb.on('field', (name, value) => void (fields[name] = value));
    bb.on('file', (_field, stream, info) => {
      if (settled) return void stream.resume();
      const p = each(info.filename ?? 'file', stream, fields);
      p.catch((e) => {
        stream.resume();
        fail(e);
      });
      pending.push(p);
    });
    bb.on('filesLimit', () => fail(badRequest(`Send at most ${maxFiles} files at once.`)));
    bb.on('error', (e) => fail(badRequest(`The upload cannot be read: ${describeError(e)}.`)));
    bb.on('close', () => {
      Promise.all(pending).then((files) => {
        if (settled) return;
        if (!files.length) return fail(badRequest('The upload holds no file: send it in a field named "file".'));
        settled = true;
        resolve({ files, fields });
      }, fail);
    });
    req.stream!.pipe(bb);
  });
}
