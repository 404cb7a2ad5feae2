import type { FieldDecl } from './schema.ts';
import { z, type ZodType } from 'zod';

/** A zod schema for declared fields (structured model output, answers to check). */
export function zodOf(fields: FieldDecl[]): z.ZodObject<Record<string, ZodType>> {
  const shape: Record<string, ZodType> = {};
  for (const f of fields) {
    let t: ZodType = fieldType(f);
    if (f.description) t = t.describe(f.description);
    shape[f.name] = f.required ? t : t.nullable().optional();
  }
  return z.object(shape);
}

function fieldType(f: FieldDecl): ZodType {
  switch (f.type) {
    case 'string':
      return z.string();
    case 'integer':
      return z.number().int();
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(f.items ? fieldType({ name: 'item', type: f.items }) : z.unknown());
    case 'object':
      return f.children?.length ? zodOf(f.children) : z.record(z.string(), z.unknown());
    case 'file':
      return z.string();
  }
}

/** JSON Schema of declared fields as tool callers read it (MCP clients, models): plain types, required listed. */
export function jsonSchemaOf(fields: FieldDecl[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const f of fields) {
    properties[f.name] = fieldSchema(f);
    if (f.required) required.push(f.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function fieldSchema(f: FieldDecl): Record<string, unknown> {
  const desc = f.description ? { description: f.description } : {};
  switch (f.type) {
    case 'array':
      return { type: 'array', items: f.items ? fieldSchema({ name: 'item', type: f.items }) : {}, ...desc };
    case 'object':
      return f.children?.length ? { ...jsonSchemaOf(f.children), ...desc } : { type: 'object', ...desc };
    case 'file':
      return { type: 'string', format: 'uri', ...desc };
    default:
      return { type: f.type, ...desc };
  }
}
