// OTLP/HTTP trace ingest: POST /v1/traces (the standard path) and /v1/loop/traces/ingest, JSON or protobuf,
// with a personal access token holding trace.ingest for the space (named by the cozeloop-workspace-id or
// x-tessera-space-id header, or space_id in the query; a token for one space needs none). A payload is
// checked whole before anything is stored: a bad one answers 400 and stores nothing.
import { ApiError, ErrorCode, badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { OtlpError, decodeJson, decodeProtobuf, validate, type OtlpBatch } from './otlp.ts';
import { fromOtlp } from './spans.ts';
import { SpansArrived, type SpanStore } from '../shared/index.ts';

const MAX_BYTES = 8 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    size += c.length;
    if (size > MAX_BYTES)
      throw new ApiError(
        413,
        ErrorCode.PAYLOAD_TOO_LARGE,
        `An OTLP payload is at most ${MAX_BYTES / 1024 / 1024} MB; export in smaller batches.`,
      );
    chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  }
  return Buffer.concat(chunks);
}

export function registerIngest(ctx: ServerContext<unknown>, store: () => SpanStore) {
  const spaceOf = (r: { headers: Record<string, unknown>; query: Record<string, unknown> }) => {
    const h = r.headers['cozeloop-workspace-id'] ?? r.headers['x-tessera-space-id'] ?? r.query.space_id;
    if (typeof h === 'string' && h) return h;
    throw badRequest(
      'Name the space the traces go to: the header x-tessera-space-id (or cozeloop-workspace-id), or space_id in the query.',
    );
  };
  for (const path of ['/v1/traces', '/v1/loop/traces/ingest']) {
    ctx.route({
      method: 'POST',
      path,
      auth: { space: async (r) => spaceOf(r as never) },
      permission: 'trace.ingest',
      upload: true,
      rawResponse: true,
      // OTLP's ExportTraceServiceResponse, in the encoding the export came in.
      produces: ['application/json', 'application/x-protobuf'],
      summary:
        'Take an OTLP/HTTP trace export (JSON or protobuf) into the space: all of it, or nothing with a 400 saying why',
      handler: async (req, reply) => {
        const type = String(req.headers['content-type'] ?? '')
          .split(';')[0]
          .trim()
          .toLowerCase();
        let batches: OtlpBatch[];
        try {
          if (type === 'application/json') batches = decodeJson(req.body);
          else if (type === 'application/x-protobuf' || type === 'application/protobuf')
            batches = decodeProtobuf(await readAll(req.stream!));
          else
            throw new ApiError(
              415,
              ErrorCode.INVALID_PARAMS,
              'Send OTLP as application/json or application/x-protobuf.',
            );
          validate(batches);
        } catch (e) {
          if (e instanceof OtlpError)
            throw badRequest(`The OTLP payload is not valid: ${e.message} Nothing of it was stored.`);
          throw e;
        }
        const spans = fromOtlp(req.spaceId!, batches);
        await store().write(spans);
        ctx.emit(SpansArrived, { space_id: req.spaceId!, spans });
        // ExportTraceServiceResponse: empty (no partial success).
        if (type === 'application/json') reply.send('{}', 'application/json');
        else reply.send(Buffer.alloc(0), 'application/x-protobuf');
      },
    });
  }
}
