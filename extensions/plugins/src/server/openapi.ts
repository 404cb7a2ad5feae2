// OpenAPI 3.x and Swagger 2 documents (JSON or YAML) into a plugin's server URL, auth hint and APIs.
// References are resolved by @apidevtools/swagger-parser inside the document only (never fetched);
// circular ones are followed to a fixed depth.
import { badRequest, describeError } from '@tessera/sdk';
import {
  APIMethod,
  ParameterLocation,
  ParameterType,
  type APIParameter,
  type ImportedApi,
  type ImportedDocument,
} from '../shared/index.ts';

type Schema = Record<string, any>;
const MAX_DEPTH = 8;
let parserModule: Promise<any> | undefined;
let yamlModule: Promise<typeof import('yaml')> | undefined;

/** Parses the text of a document (JSON or YAML) into an object, with a message a person can act on. */
export async function parseDocumentText(text: string): Promise<Schema> {
  const trimmed = text.trim();
  if (!trimmed) throw badRequest('The document is empty: paste an OpenAPI 3 or Swagger 2 document (JSON or YAML).');
  let doc: unknown;
  if (trimmed.startsWith('{')) {
    try {
      doc = JSON.parse(trimmed);
    } catch (e) {
      throw badRequest(`The document is not valid JSON: ${describeError(e)}`);
    }
  } else {
    const YAML = await (yamlModule ??= import('yaml'));
    try {
      doc = YAML.parse(trimmed, { maxAliasCount: 100 });
    } catch (e) {
      throw badRequest(`The document is not valid YAML: ${describeError(e).split('\n')[0]}`);
    }
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw badRequest('The document is not an OpenAPI object.');
  const d = doc as Schema;
  if (!d.openapi && !d.swagger)
    throw badRequest('The document names neither `openapi` (3.x) nor `swagger` (2.0): is it an OpenAPI document?');
  if (d.swagger && String(d.swagger) !== '2.0')
    throw badRequest(`Swagger ${d.swagger} is not supported; use Swagger 2.0 or OpenAPI 3.`);
  if (d.openapi && !String(d.openapi).startsWith('3.'))
    throw badRequest(`OpenAPI ${d.openapi} is not supported; use OpenAPI 3.0 or 3.1.`);
  if (!d.paths || typeof d.paths !== 'object')
    throw badRequest('The document has no `paths`: there are no APIs to import.');
  return d;
}

export async function importOpenApi(text: string): Promise<ImportedDocument> {
  const raw = await parseDocumentText(text);
  const mod = await (parserModule ??= import('@apidevtools/swagger-parser'));
  const SwaggerParser = (mod.default ?? mod) as { dereference(doc: unknown, opts: unknown): Promise<unknown> };
  let doc: Schema;
  try {
    doc = (await SwaggerParser.dereference(structuredClone(raw) as never, {
      resolve: { external: false, file: false, http: false },
      dereference: { circular: true },
    })) as Schema;
  } catch (e) {
    throw badRequest(`The document's references could not be resolved: ${describeError(e).split('\n')[0]}`);
  }
  const swagger2 = !!doc.swagger;
  const apis: ImportedApi[] = [];
  const skipped: string[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const [m, op] of Object.entries<Schema>(item)) {
      const method = APIMethod[m.toUpperCase() as keyof typeof APIMethod];
      if (!method || !op || typeof op !== 'object') {
        if (!['parameters', 'summary', 'description', 'servers', '$ref'].includes(m))
          skipped.push(`${m.toUpperCase()} ${path}: the method is not supported`);
        continue;
      }
      let name = apiName(op.operationId || `${m}_${path}`);
      for (let i = 2; names.has(name); i++) name = `${apiName(op.operationId || `${m}_${path}`)}_${i}`;
      names.add(name);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])] as Schema[];
      const request_params = swagger2 ? swagger2Request(params, op) : openapi3Request(params, op);
      apis.push({
        name,
        desc: String(op.summary || op.description || '').slice(0, 2000),
        path,
        method,
        request_params,
        response_params: responseParams(op, swagger2),
      });
    }
  }
  if (!apis.length)
    throw badRequest('The document has no operation the studio can import (GET, POST, PUT, DELETE or PATCH).');
  return {
    name: String(doc.info?.title ?? '').slice(0, 100),
    desc: String(doc.info?.description ?? '').slice(0, 2000),
    server_url: serverUrl(doc),
    auth: authHint(doc),
    apis,
    skipped,
  };
}

function apiName(text: string): string {
  const n = text
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return /^[A-Za-z_]/.test(n) ? n : `api_${n}`;
}

function serverUrl(doc: Schema): string {
  if (doc.swagger) {
    if (!doc.host) return '';
    const scheme = (doc.schemes as string[] | undefined)?.includes('https') ? 'https' : (doc.schemes?.[0] ?? 'https');
    return `${scheme}://${doc.host}${doc.basePath && doc.basePath !== '/' ? doc.basePath : ''}`;
  }
  const s = doc.servers?.[0];
  if (!s?.url) return '';
  // Server variables take their defaults.
  return String(s.url)
    .replace(/\{(\w+)\}/g, (_: string, v: string) => String(s.variables?.[v]?.default ?? v))
    .replace(/\/$/, '');
}

function authHint(doc: Schema): ImportedDocument['auth'] {
  const schemes: Schema[] = Object.values(doc.components?.securitySchemes ?? doc.securityDefinitions ?? {});
  for (const s of schemes) {
    if (s.type === 'apiKey' && (s.in === 'header' || s.in === 'query'))
      return { auth_type: 1, location: s.in === 'header' ? 1 : 2, key: String(s.name ?? '') };
    if (s.type === 'http' && /^bearer$/i.test(s.scheme ?? ''))
      return { auth_type: 1, location: 1, key: 'Authorization' };
    const code =
      s.type === 'oauth2' ? (s.flows?.authorizationCode ?? (s.flow === 'accessCode' ? s : undefined)) : undefined;
    if (code)
      return {
        auth_type: 3,
        client_url: String(code.authorizationUrl ?? ''),
        authorization_url: String(code.tokenUrl ?? ''),
        scope: Object.keys(code.scopes ?? {}).join(' '),
      };
  }
  return { auth_type: 0 };
}

const LOCATION: Record<string, number> = {
  path: ParameterLocation.Path,
  query: ParameterLocation.Query,
  header: ParameterLocation.Header,
};

function openapi3Request(params: Schema[], op: Schema): APIParameter[] {
  const out: APIParameter[] = [];
  for (const p of params) {
    const location = LOCATION[p.in];
    if (!location || !p.name) continue;
    out.push({
      ...toParam(p.name, p.schema ?? { type: 'string' }, 0, p.description),
      location,
      is_required: !!p.required || p.in === 'path',
    });
  }
  const content = op.requestBody?.content ?? {};
  const media =
    content['application/json'] ??
    content['application/x-www-form-urlencoded'] ??
    content['multipart/form-data'] ??
    Object.values<Schema>(content)[0];
  if (media?.schema) out.push(...bodyParams(media.schema, !!op.requestBody?.required));
  return out;
}

function swagger2Request(params: Schema[], _op: Schema): APIParameter[] {
  const out: APIParameter[] = [];
  for (const p of params) {
    if (p.in === 'body' && p.schema) out.push(...bodyParams(p.schema, !!p.required));
    else if (p.in === 'formData')
      out.push({
        ...toParam(p.name, p, 0, p.description),
        location: ParameterLocation.Body,
        is_required: !!p.required,
      });
    else if (LOCATION[p.in] && p.name)
      out.push({
        ...toParam(p.name, p, 0, p.description),
        location: LOCATION[p.in],
        is_required: !!p.required || p.in === 'path',
      });
  }
  return out;
}

/** A request body: an object's properties become body parameters; anything else one parameter named body. */
function bodyParams(schema: Schema, required: boolean): APIParameter[] {
  const s = flatten(schema);
  if (typeOf(s) === 'object' && s.properties) {
    const req = new Set<string>(s.required ?? []);
    return Object.entries<Schema>(s.properties).map(([name, sub]) => ({
      ...toParam(name, sub, 1),
      location: ParameterLocation.Body,
      is_required: req.has(name),
    }));
  }
  return [{ ...toParam('body', s, 0), location: ParameterLocation.Body, is_required: required }];
}

function responseParams(op: Schema, swagger2: boolean): APIParameter[] {
  const responses: Schema = op.responses ?? {};
  const ok =
    responses['200'] ??
    responses['201'] ??
    responses.default ??
    Object.entries<Schema>(responses).find(([k]) => k.startsWith('2'))?.[1];
  if (!ok) return [];
  const schema = swagger2
    ? ok.schema
    : (ok.content?.['application/json'] ?? Object.values<Schema>(ok.content ?? {})[0])?.schema;
  if (!schema) return [];
  const s = flatten(schema);
  if (typeOf(s) === 'object' && s.properties) {
    const req = new Set<string>(s.required ?? []);
    return Object.entries<Schema>(s.properties).map(([name, sub]) => ({
      ...toParam(name, sub, 1),
      is_required: req.has(name),
    }));
  }
  return [toParam('data', s, 0)];
}

/** allOf merged into one object schema; oneOf/anyOf take their first non-null choice. */
function flatten(schema: Schema, depth = 0): Schema {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return {};
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf.map((x: Schema) => flatten(x, depth + 1))) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
      if (part.type && part.type !== 'object' && !part.properties)
        return { ...part, description: schema.description ?? part.description };
    }
    Object.assign(merged.properties, schema.properties ?? {});
    merged.required.push(...(schema.required ?? []));
    return { ...merged, description: schema.description };
  }
  const choice = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(choice)) {
    const first = choice.find((c: Schema) => c?.type !== 'null') ?? choice[0];
    return { ...flatten(first, depth + 1), description: schema.description ?? first?.description };
  }
  return schema;
}

function typeOf(s: Schema): string {
  const t = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  if (t) return t;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return 'string';
}

const TYPE: Record<string, number> = {
  string: ParameterType.String,
  integer: ParameterType.Integer,
  number: ParameterType.Number,
  boolean: ParameterType.Bool,
  object: ParameterType.Object,
  array: ParameterType.Array,
  file: ParameterType.String,
};

function toParam(name: string, schema: Schema, depth: number, desc?: string): APIParameter {
  const s = flatten(schema, depth);
  const type = TYPE[typeOf(s)] ?? ParameterType.String;
  const p: APIParameter = {
    name: String(name).slice(0, 100),
    desc: String(desc ?? s.description ?? s.title ?? '').slice(0, 2000),
    type,
    is_required: false,
  };
  if (s.default !== undefined) p.global_default = typeof s.default === 'string' ? s.default : JSON.stringify(s.default);
  if (depth >= MAX_DEPTH) return p;
  if (type === ParameterType.Object && s.properties) {
    const req = new Set<string>(s.required ?? []);
    p.sub_parameters = Object.entries<Schema>(s.properties).map(([k, v]) => ({
      ...toParam(k, v, depth + 1),
      is_required: req.has(k),
    }));
  }
  if (type === ParameterType.Array) {
    const item = toParam('[Array Item]', s.items ?? { type: 'string' }, depth + 1);
    p.sub_type = item.type;
    p.sub_parameters = [item];
  }
  return p;
}
