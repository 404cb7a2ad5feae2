// Forms of the database nodes: the table, conditions on its fields compared with node inputs, the values to
// write, order and limit; the SQL node's statement.
import { Button, Input, InputNumber, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import { useTranslation } from 'react-i18next';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListTables } from '@tessera/ext-tables/api';

interface Table {
  id: string;
  table_name: string;
  field_list: { name: string; type: number }[];
}
type Condition = { field: string; op: string; input?: string };
type Assignment = { field: string; input: string };
const OPS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'is_null', 'not_null'];

function useTables(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['tables', 'list', spaceId, 'nodes'],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListTables>>('/api/memory/database/list', { space_id: spaceId, limit: 100 }),
  });
}

function TablePick({
  spaceId,
  value,
  onChange,
}: {
  spaceId: string;
  value?: string;
  onChange(id: string, name: string): void;
}) {
  const { t } = useTranslation('node-database');
  const q = useTables(spaceId);
  return (
    <Select
      size="small"
      placeholder={t('table')}
      value={value || undefined}
      loading={q.isLoading}
      notFoundContent={t('noTables')}
      onChange={(id: string) => onChange(id, q.data?.database_info_list.find((x) => x.id === id)?.table_name ?? '')}
      data-testid="db-node-table"
    >
      {(q.data?.database_info_list ?? []).map((x) => (
        <Select.Option key={x.id} value={x.id}>
          {x.table_name}
        </Select.Option>
      ))}
    </Select>
  );
}

const fieldsOf = (tables: Table[] | undefined, id?: string) => [
  'id',
  'uuid',
  ...(tables?.find((x) => x.id === id)?.field_list.map((f) => f.name) ?? []),
];

function Conditions({
  value,
  fields,
  inputs,
  onChange,
}: {
  value: Condition[];
  fields: string[];
  inputs: string[];
  onChange(v: Condition[]): void;
}) {
  const { t } = useTranslation('node-database');
  const set = (i: number, patch: Partial<Condition>) =>
    onChange(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div data-testid="db-node-conditions">
      {value.map((c, i) => (
        <Space key={i} size={4} style={{ display: 'flex', marginTop: 4 }}>
          <Select
            size="small"
            style={{ width: 110 }}
            value={c.field}
            onChange={(field) => set(i, { field })}
            aria-label={t('field')}
          >
            {fields.map((f) => (
              <Select.Option key={f} value={f}>
                {f}
              </Select.Option>
            ))}
          </Select>
          <Select
            size="small"
            style={{ width: 100 }}
            value={c.op}
            onChange={(op) => set(i, { op, ...(op === 'is_null' || op === 'not_null' ? { input: undefined } : {}) })}
            aria-label={t('operator')}
          >
            {OPS.map((o) => (
              <Select.Option key={o} value={o}>
                {t(`op.${o}`)}
              </Select.Option>
            ))}
          </Select>
          {c.op !== 'is_null' && c.op !== 'not_null' && (
            <Select
              size="small"
              style={{ width: 110 }}
              placeholder={t('input')}
              value={c.input}
              onChange={(input) => set(i, { input })}
              aria-label={t('input')}
            >
              {inputs.map((n) => (
                <Select.Option key={n} value={n}>
                  {n}
                </Select.Option>
              ))}
            </Select>
          )}
          <Button
            size="mini"
            type="text"
            icon={<IconDelete />}
            aria-label={t('remove')}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => onChange([...value, { field: fields[2] ?? 'id', op: 'eq', input: inputs[0] }])}
      >
        {t('addCondition')}
      </Button>
    </div>
  );
}

function Assignments({
  value,
  fields,
  inputs,
  onChange,
}: {
  value: Assignment[];
  fields: string[];
  inputs: string[];
  onChange(v: Assignment[]): void;
}) {
  const { t } = useTranslation('node-database');
  const set = (i: number, patch: Partial<Assignment>) =>
    onChange(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div data-testid="db-node-values">
      {value.map((a, i) => (
        <Space key={i} size={4} style={{ display: 'flex', marginTop: 4 }}>
          <Select
            size="small"
            style={{ width: 130 }}
            value={a.field}
            onChange={(field) => set(i, { field })}
            aria-label={t('field')}
          >
            {fields.map((f) => (
              <Select.Option key={f} value={f}>
                {f}
              </Select.Option>
            ))}
          </Select>
          <span>=</span>
          <Select
            size="small"
            style={{ width: 130 }}
            placeholder={t('input')}
            value={a.input}
            onChange={(input) => set(i, { input })}
            aria-label={t('input')}
          >
            {inputs.map((n) => (
              <Select.Option key={n} value={n}>
                {n}
              </Select.Option>
            ))}
          </Select>
          <Button
            size="mini"
            type="text"
            icon={<IconDelete />}
            aria-label={t('remove')}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() =>
          onChange([
            ...value,
            { field: fields.find((f) => !value.some((v) => v.field === f)) ?? fields[0], input: inputs[0] ?? '' },
          ])
        }
      >
        {t('addValue')}
      </Button>
    </div>
  );
}

/** The form of the query, add, update and delete nodes (which parts show depends on the node). */
export function DatabaseForm(parts: { conditions?: boolean; values?: boolean; order?: boolean }) {
  return function Form({ node, onSettings, spaceId }: NodeFormProps) {
    const { t } = useTranslation('node-database');
    const tables = useTables(spaceId);
    const s = node.node_param.settings as {
      database_id?: string;
      conditions?: Condition[];
      values?: Assignment[];
      order_by?: { field: string; direction: string }[];
      limit?: number;
    };
    const fields = fieldsOf(tables.data?.database_info_list, s.database_id);
    const userFields = fields.filter((f) => f !== 'id' && f !== 'uuid');
    const inputs = node.node_param.inputs.map((b) => b.name);
    const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
    return (
      <Space direction="vertical" style={{ width: '100%' }} size={8} data-testid="db-node-form">
        <TablePick
          spaceId={spaceId}
          value={s.database_id}
          onChange={(database_id, database_name) => set({ database_id, database_name })}
        />
        {!inputs.length && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('inputsHint')}
          </Typography.Text>
        )}
        {parts.conditions && (
          <div>
            <Typography.Text type="secondary">{t('conditions')}</Typography.Text>
            <Conditions
              value={s.conditions ?? []}
              fields={fields}
              inputs={inputs}
              onChange={(conditions) => set({ conditions })}
            />
          </div>
        )}
        {parts.values && (
          <div>
            <Typography.Text type="secondary">{t('values')}</Typography.Text>
            <Assignments
              value={s.values ?? []}
              fields={userFields}
              inputs={inputs}
              onChange={(values) => set({ values })}
            />
          </div>
        )}
        {parts.order && (
          <Space wrap>
            <Typography.Text type="secondary">{t('orderBy')}</Typography.Text>
            <Select
              size="small"
              style={{ width: 130 }}
              allowClear
              value={s.order_by?.[0]?.field}
              onChange={(field?: string) =>
                set({ order_by: field ? [{ field, direction: s.order_by?.[0]?.direction ?? 'asc' }] : [] })
              }
              aria-label={t('orderBy')}
            >
              {fields.map((f) => (
                <Select.Option key={f} value={f}>
                  {f}
                </Select.Option>
              ))}
            </Select>
            <Select
              size="small"
              style={{ width: 100 }}
              value={s.order_by?.[0]?.direction ?? 'asc'}
              disabled={!s.order_by?.length}
              onChange={(direction) => set({ order_by: [{ field: s.order_by![0].field, direction }] })}
            >
              <Select.Option value="asc">{t('asc')}</Select.Option>
              <Select.Option value="desc">{t('desc')}</Select.Option>
            </Select>
            <Typography.Text type="secondary">{t('limit')}</Typography.Text>
            <InputNumber
              size="small"
              style={{ width: 90 }}
              min={1}
              max={1000}
              value={s.limit ?? 100}
              onChange={(limit) => set({ limit })}
            />
          </Space>
        )}
      </Space>
    );
  };
}

export function SqlForm({ node, onSettings, spaceId }: NodeFormProps) {
  const { t } = useTranslation('node-database');
  const tables = useTables(spaceId);
  const s = node.node_param.settings as { sql?: string };
  return (
    <div data-testid="db-sql-form">
      <Input.TextArea
        value={s.sql ?? ''}
        autoSize={{ minRows: 3, maxRows: 12 }}
        style={{ fontFamily: 'monospace' }}
        placeholder="SELECT * FROM my_table WHERE name = {{name}}"
        onChange={(sql) => onSettings({ ...s, sql })}
        data-testid="db-sql-text"
      />
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('sqlHelp')} {(tables.data?.database_info_list ?? []).map((x) => x.table_name).join(', ')}
      </Typography.Paragraph>
    </div>
  );
}
