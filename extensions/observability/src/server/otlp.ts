// OTLP/HTTP trace payloads (ExportTraceServiceRequest), JSON or protobuf, read into one shape. The protobuf
// reader knows only the messages of opentelemetry/proto/collector/trace/v1 it needs; unknown fields are
// skipped by their wire type, as protobuf readers do. Anything malformed throws an OtlpError (a 400): a
// payload is taken whole or not at all.

export class OtlpError extends Error {}

import type { AttrValue } from '../shared/index.ts';
import { fieldOf, isRecord } from '@tessera/sdk';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Microseconds since the epoch. */
  startUs: number;
  endUs: number;
  attributes: Record<string, AttrValue>;
  events: { timeUs: number; name: string; attributes: Record<string, AttrValue> }[];
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
}

export interface OtlpBatch {
  resource: Record<string, AttrValue>;
  spans: OtlpSpan[];
}

const HEX = /^[0-9a-f]+$/;
const MAX_SPANS = 50_000;

// ---- protobuf wire format ----

class Reader {
  pos = 0;
  readonly buf: Uint8Array;
  readonly end: number;
  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.end = buf.length;
  }
  get done() {
    return this.pos >= this.end;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new OtlpError('The protobuf payload ends inside a number.');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
    throw new OtlpError('The protobuf payload has a number longer than 10 bytes.');
  }
  uint(): number {
    return Number(this.varint() & 0xffffffffn);
  }
  fixed64(): bigint {
    if (this.pos + 8 > this.end) throw new OtlpError('The protobuf payload ends inside a fixed64.');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getBigUint64(0, true);
    this.pos += 8;
    return v;
  }
  double(): number {
    if (this.pos + 8 > this.end) throw new OtlpError('The protobuf payload ends inside a double.');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }
  bytes(): Uint8Array {
    const len = this.uint();
    if (this.pos + len > this.end) throw new OtlpError('The protobuf payload ends inside a field.');
    const v = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return v;
  }
  string(): string {
    return new TextDecoder('utf-8', { fatal: false }).decode(this.bytes());
  }
  sub(): Reader {
    const b = this.bytes();
    return new Reader(b);
  }
  skip(wire: number) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new OtlpError(`The protobuf payload uses wire type ${wire}, which OTLP does not.`);
    if (this.pos > this.end) throw new OtlpError('The protobuf payload ends inside a field.');
  }
  /** Calls `field(number, wire)` for each field; it reads the value or returns false to skip it. */
  each(field: (n: number, wire: number) => boolean) {
    while (!this.done) {
      const tag = this.uint();
      const n = tag >>> 3;
      const wire = tag & 7;
      if (!field(n, wire)) this.skip(wire);
    }
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const nsToUs = (ns: bigint) => Number(ns / 1000n);

/** How deeply attribute values (lists and key-value lists) may nest: deeper payloads are refused, not recursed into. */
const MAX_DEPTH = 32;

function anyValue(r: Reader, depth = 0): AttrValue {
  if (depth > MAX_DEPTH) throw new OtlpError(`An attribute value nests more than ${MAX_DEPTH} levels deep.`);
  let v: AttrValue = null;
  r.each((n, wire) => {
    if (n === 1 && wire === 2) v = r.string();
    else if (n === 2 && wire === 0) v = r.varint() !== 0n;
    else if (n === 3 && wire === 0) v = Number(BigInt.asIntN(64, r.varint()));
    else if (n === 4 && wire === 1) v = r.double();
    else if (n === 5 && wire === 2) {
      const list: AttrValue[] = [];
      const a = r.sub();
      a.each((m, w) => (m === 1 && w === 2 ? (list.push(anyValue(a.sub(), depth + 1)), true) : false));
      v = list;
    } else if (n === 6 && wire === 2) {
      const obj: Record<string, AttrValue> = {};
      const k = r.sub();
      k.each((m, w) => (m === 1 && w === 2 ? (Object.assign(obj, keyValue(k.sub(), depth + 1)), true) : false));
      v = obj;
    } else if (n === 7 && wire === 2) v = Buffer.from(r.bytes()).toString('base64');
    else return false;
    return true;
  });
  return v;
}

function keyValue(r: Reader, depth = 0): Record<string, AttrValue> {
  let key = '';
  let value: AttrValue = null;
  r.each((n, wire) => {
    if (n === 1 && wire === 2) key = r.string();
    else if (n === 2 && wire === 2) value = anyValue(r.sub(), depth);
    else return false;
    return true;
  });
  return key ? { [key]: value } : {};
}

function protoSpan(r: Reader): OtlpSpan {
  const s: OtlpSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startUs: 0,
    endUs: 0,
    attributes: {},
    events: [],
    statusCode: 0,
    statusMessage: '',
  };
  r.each((n, wire) => {
    if (n === 1 && wire === 2) s.traceId = hex(r.bytes());
    else if (n === 2 && wire === 2) s.spanId = hex(r.bytes());
    else if (n === 4 && wire === 2) s.parentSpanId = hex(r.bytes());
    else if (n === 5 && wire === 2) s.name = r.string();
    else if (n === 6 && wire === 0) s.kind = r.uint();
    else if (n === 7 && wire === 1) s.startUs = nsToUs(r.fixed64());
    else if (n === 8 && wire === 1) s.endUs = nsToUs(r.fixed64());
    else if (n === 9 && wire === 2) Object.assign(s.attributes, keyValue(r.sub()));
    else if (n === 11 && wire === 2) {
      const e = r.sub();
      const ev = { timeUs: 0, name: '', attributes: {} as Record<string, AttrValue> };
      e.each((m, w) => {
        if (m === 1 && w === 1) ev.timeUs = nsToUs(e.fixed64());
        else if (m === 2 && w === 2) ev.name = e.string();
        else if (m === 3 && w === 2) Object.assign(ev.attributes, keyValue(e.sub()));
        else return false;
        return true;
      });
      s.events.push(ev);
    } else if (n === 15 && wire === 2) {
      const st = r.sub();
      st.each((m, w) => {
        if (m === 2 && w === 2) s.statusMessage = st.string();
        else if (m === 3 && w === 0) s.statusCode = st.uint();
        else return false;
        return true;
      });
    } else return false;
    return true;
  });
  return s;
}

export function decodeProtobuf(buf: Uint8Array): OtlpBatch[] {
  const batches: OtlpBatch[] = [];
  const r = new Reader(buf);
  r.each((n, wire) => {
    if (n !== 1 || wire !== 2) return false;
    const rs = r.sub();
    const batch: OtlpBatch = { resource: {}, spans: [] };
    rs.each((m, w) => {
      if (m === 1 && w === 2) {
        const res = rs.sub();
        res.each((k, kw) => (k === 1 && kw === 2 ? (Object.assign(batch.resource, keyValue(res.sub())), true) : false));
      } else if (m === 2 && w === 2) {
        const ss = rs.sub();
        ss.each((k, kw) => (k === 2 && kw === 2 ? (batch.spans.push(protoSpan(ss.sub())), true) : false));
      } else return false;
      return true;
    });
    batches.push(batch);
    return true;
  });
  return batches;
}

// ---- JSON (the protobuf JSON mapping: camelCase, ids in hex, 64-bit numbers as strings) ----

const num = (v: unknown, what: string): bigint => {
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  if (v === undefined || v === null) return 0n;
  throw new OtlpError(`${what} is not a number of nanoseconds.`);
};

function jsonValue(v: unknown): AttrValue {
  if (!v || typeof v !== 'object') return null;
  const o = v;
  if ('stringValue' in o) return String(o.stringValue);
  if ('boolValue' in o) return !!o.boolValue;
  if ('intValue' in o) return Number(o.intValue);
  if ('doubleValue' in o) return Number(o.doubleValue);
  if ('bytesValue' in o) return String(o.bytesValue);
  if ('arrayValue' in o) {
    const values = fieldOf(o.arrayValue, 'values') ?? [];
    if (!Array.isArray(values)) throw new OtlpError('An arrayValue holds a list of values.');
    return values.map(jsonValue);
  }
  if ('kvlistValue' in o) return jsonAttrs(fieldOf(o.kvlistValue, 'values'));
  return null;
}

function jsonAttrs(list: unknown): Record<string, AttrValue> {
  if (list === undefined || list === null) return {};
  if (!Array.isArray(list)) throw new OtlpError('attributes must be a list of { key, value }.');
  const out: Record<string, AttrValue> = {};
  for (const kv of list) {
    const key = fieldOf(kv, 'key');
    if (typeof key !== 'string') throw new OtlpError('An attribute has no key.');
    out[key] = jsonValue(fieldOf(kv, 'value'));
  }
  return out;
}

const idOf = (v: unknown, what: string) => {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string') throw new OtlpError(`${what} must be a hex string.`);
  return v.toLowerCase();
};

/** OTLP's status codes by name, as the JSON encoding may write them. */
const STATUS_CODES: Record<string, number> = { STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

export function decodeJson(body: unknown): OtlpBatch[] {
  const resourceSpans = fieldOf(body, 'resourceSpans');
  if (!Array.isArray(resourceSpans))
    throw new OtlpError('The payload is not an OTLP trace export: it has no resourceSpans list.');
  return resourceSpans.map((rs: unknown) => {
    const scopes = fieldOf(rs, 'scopeSpans') ?? fieldOf(rs, 'instrumentationLibrarySpans') ?? [];
    if (!Array.isArray(scopes)) throw new OtlpError('scopeSpans must be a list.');
    const spans: OtlpSpan[] = [];
    for (const sc of scopes) {
      const list = fieldOf(sc, 'spans') ?? [];
      if (!Array.isArray(list)) throw new OtlpError('spans must be a list.');
      for (const raw of list) {
        const s = isRecord(raw) ? raw : {};
        const events = s.events ?? [];
        if (!Array.isArray(events)) throw new OtlpError("A span's events must be a list.");
        const code = fieldOf(s.status, 'code');
        const message = fieldOf(s.status, 'message');
        spans.push({
          traceId: idOf(s.traceId, 'traceId'),
          spanId: idOf(s.spanId, 'spanId'),
          parentSpanId: idOf(s.parentSpanId, 'parentSpanId'),
          name: typeof s.name === 'string' ? s.name : '',
          kind: Number(s.kind ?? 0) || 0,
          startUs: Number(num(s.startTimeUnixNano, 'startTimeUnixNano') / 1000n),
          endUs: Number(num(s.endTimeUnixNano, 'endTimeUnixNano') / 1000n),
          attributes: jsonAttrs(s.attributes),
          events: events.map((e: unknown) => ({
            timeUs: Number(num(fieldOf(e, 'timeUnixNano'), 'timeUnixNano') / 1000n),
            name: String(fieldOf(e, 'name') ?? ''),
            attributes: jsonAttrs(fieldOf(e, 'attributes')),
          })),
          statusCode: typeof code === 'string' ? (STATUS_CODES[code] ?? 0) : Number(code ?? 0) || 0,
          statusMessage: typeof message === 'string' ? message : '',
        });
      }
    }
    return { resource: jsonAttrs(fieldOf(fieldOf(rs, 'resource'), 'attributes')), spans };
  });
}

/** Checks every span of the payload; the first problem throws (nothing of the payload is stored). */
export function validate(batches: OtlpBatch[]) {
  let count = 0;
  for (const b of batches)
    for (const [i, s] of b.spans.entries()) {
      if (++count > MAX_SPANS) throw new OtlpError(`A payload holds at most ${MAX_SPANS} spans.`);
      const at = `span ${i}${s.name ? ` (${s.name})` : ''}`;
      if (s.traceId.length !== 32 || !HEX.test(s.traceId) || /^0+$/.test(s.traceId))
        throw new OtlpError(`${at}: traceId must be 16 bytes, not all zero.`);
      if (s.spanId.length !== 16 || !HEX.test(s.spanId) || /^0+$/.test(s.spanId))
        throw new OtlpError(`${at}: spanId must be 8 bytes, not all zero.`);
      if (s.parentSpanId && (s.parentSpanId.length !== 16 || !HEX.test(s.parentSpanId)))
        throw new OtlpError(`${at}: parentSpanId must be 8 bytes.`);
      if (!s.name.trim()) throw new OtlpError(`${at}: a span needs a name.`);
      if (!s.startUs) throw new OtlpError(`${at}: startTimeUnixNano is missing.`);
      if (s.endUs && s.endUs < s.startUs) throw new OtlpError(`${at}: it ends before it starts.`);
    }
  return count;
}
