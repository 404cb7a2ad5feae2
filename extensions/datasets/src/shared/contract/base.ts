// What the datasets' contracts share: an id, an empty answer, the path they start with, and a dataset's fields.
import { z } from 'zod';

export const Id = z.string().min(1).max(32);
export const ok = z.object({});
export const BASE = '/api/ml_flow/v2';

export const FIELD_TYPES = ['text', 'number', 'image', 'file', 'json', 'messages'] as const;
export const FieldType = z.enum(FIELD_TYPES);
export const Field = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A field name is a letter or _, then letters, digits or _ (64 at most).'),
  type: FieldType,
  description: z.string().max(400).default(''),
  required: z.boolean().default(false),
});
export type Field = z.output<typeof Field>;
