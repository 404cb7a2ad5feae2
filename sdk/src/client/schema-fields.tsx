import { Input, InputTag, Space } from '@arco-design/web-react';
import type { FieldsSchema } from './widgets.tsx';

/** See `SchemaFields` in widgets. */
export function SchemaFields({
  schema,
  value,
  onChange,
  label,
  testIdPrefix,
}: {
  schema: FieldsSchema;
  value: Record<string, unknown>;
  onChange(v: Record<string, unknown>): void;
  label(field: string): string;
  testIdPrefix: string;
}) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {Object.entries(schema.properties ?? {}).map(([field, p]) =>
        p.type === 'array' ? (
          <InputTag
            key={field}
            allowClear
            saveOnBlur
            placeholder={label(field)}
            value={(value[field] as string[] | undefined) ?? []}
            onChange={(v) => onChange({ ...value, [field]: v.map(String) })}
            data-testid={`${testIdPrefix}-${field}`}
          />
        ) : (
          <Input
            key={field}
            placeholder={label(field)}
            value={String(value[field] ?? '')}
            onChange={(v) => onChange({ ...value, [field]: v })}
            data-testid={`${testIdPrefix}-${field}`}
          />
        ),
      )}
    </Space>
  );
}
