// A tree of request or response parameters: name, type, where it goes (request, top level), required,
// description, default; objects and arrays nest.
import { Button, Checkbox, Input, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { ParameterType, type APIParameter } from '../shared/index.ts';

const TYPES: [number, string][] = [
  [ParameterType.String, 'string'],
  [ParameterType.Integer, 'integer'],
  [ParameterType.Number, 'number'],
  [ParameterType.Bool, 'boolean'],
  [ParameterType.Object, 'object'],
  [ParameterType.Array, 'array'],
];
const LOCATIONS: [number, string][] = [
  [1, 'path'],
  [2, 'query'],
  [3, 'body'],
  [4, 'header'],
];
export const typeName = (t: number) => TYPES.find(([n]) => n === t)?.[1] ?? 'string';
export const locationName = (l?: number) => LOCATIONS.find(([n]) => n === l)?.[1] ?? 'body';

const ITEM = '[Array Item]';

export function ParamsEditor({
  params,
  onChange,
  request,
  testId,
}: {
  params: APIParameter[];
  onChange(next: APIParameter[]): void;
  request: boolean;
  testId: string;
}) {
  const { t } = useTranslation('plugins');
  return (
    <div data-testid={testId}>
      <Rows params={params} onChange={onChange} request={request} depth={0} testId={testId} />
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() =>
          onChange([
            ...params,
            { name: '', type: ParameterType.String, location: request ? 2 : undefined, is_required: false, desc: '' },
          ])
        }
        data-testid={`${testId}-add`}
      >
        {t('params.add')}
      </Button>
    </div>
  );
}

function Rows({
  params,
  onChange,
  request,
  depth,
  testId,
  arrayItem,
}: {
  params: APIParameter[];
  onChange(next: APIParameter[]): void;
  request: boolean;
  depth: number;
  testId: string;
  arrayItem?: boolean;
}) {
  const { t } = useTranslation('plugins');
  const set = (i: number, patch: Partial<APIParameter>) =>
    onChange(params.map((p, j) => (j === i ? withShape({ ...p, ...patch }) : p)));
  return (
    <>
      {params.map((p, i) => (
        <div key={i} style={{ marginLeft: depth * 16 }}>
          <Space size={4} style={{ marginBottom: 4 }} wrap>
            <Input
              size="small"
              style={{ width: 140 }}
              value={p.name}
              disabled={arrayItem}
              placeholder={t('params.name')}
              onChange={(name) => set(i, { name })}
              data-testid={`${testId}-name`}
            />
            <Select
              size="small"
              style={{ width: 100 }}
              value={p.type}
              onChange={(type) => set(i, { type })}
              aria-label={t('params.type')}
              data-testid={`${testId}-type`}
            >
              {TYPES.map(([n, label]) => (
                <Select.Option key={n} value={n}>
                  {label}
                </Select.Option>
              ))}
            </Select>
            {request && depth === 0 && (
              <Select
                size="small"
                style={{ width: 90 }}
                value={p.location ?? 3}
                onChange={(location) => set(i, { location })}
                aria-label={t('params.location')}
                data-testid={`${testId}-location`}
              >
                {LOCATIONS.map(([n, label]) => (
                  <Select.Option key={n} value={n}>
                    {label}
                  </Select.Option>
                ))}
              </Select>
            )}
            {!arrayItem && (
              <Checkbox checked={!!p.is_required} onChange={(is_required) => set(i, { is_required })}>
                {t('params.required')}
              </Checkbox>
            )}
            <Input
              size="small"
              style={{ width: 180 }}
              value={p.desc ?? ''}
              placeholder={t('params.desc')}
              onChange={(desc) => set(i, { desc })}
            />
            {request && !arrayItem && p.type !== ParameterType.Object && p.type !== ParameterType.Array && (
              <Input
                size="small"
                style={{ width: 110 }}
                value={p.global_default ?? ''}
                placeholder={t('params.default')}
                onChange={(v) => set(i, { global_default: v || undefined })}
              />
            )}
            {p.type === ParameterType.Object && (
              <Button
                size="mini"
                type="text"
                icon={<IconPlus />}
                aria-label={t('params.addChild')}
                title={t('params.addChild')}
                onClick={() =>
                  set(i, {
                    sub_parameters: [
                      ...(p.sub_parameters ?? []),
                      { name: '', type: ParameterType.String, is_required: false, desc: '' },
                    ],
                  })
                }
                data-testid={`${testId}-add-child`}
              />
            )}
            {!arrayItem && (
              <Button
                size="mini"
                type="text"
                status="danger"
                icon={<IconDelete />}
                aria-label={t('params.remove')}
                onClick={() => onChange(params.filter((_, j) => j !== i))}
              />
            )}
          </Space>
          {(p.type === ParameterType.Object || p.type === ParameterType.Array) && !!p.sub_parameters?.length && (
            <Rows
              params={p.sub_parameters}
              onChange={(sub) =>
                set(i, { sub_parameters: sub, ...(p.type === ParameterType.Array ? { sub_type: sub[0]?.type } : {}) })
              }
              request={request}
              depth={depth + 1}
              testId={testId}
              arrayItem={p.type === ParameterType.Array}
            />
          )}
        </div>
      ))}
      {!params.length && depth === 0 && (
        <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
          {t('params.none')}
        </Typography.Text>
      )}
    </>
  );
}

/** Objects keep their children, arrays get exactly one item, scalars none. */
function withShape(p: APIParameter): APIParameter {
  if (p.type === ParameterType.Array) {
    const item = p.sub_parameters?.[0] ?? { name: ITEM, type: ParameterType.String };
    return { ...p, sub_type: item.type, sub_parameters: [{ ...item, name: ITEM }] };
  }
  if (p.type === ParameterType.Object) return { ...p, sub_type: undefined, sub_parameters: p.sub_parameters ?? [] };
  return { ...p, sub_type: undefined, sub_parameters: undefined };
}

/** Example values for a JSON input (debug panel), from the parameters' types and defaults. */
export function exampleInput(params: APIParameter[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) if (!p.global_disable) out[p.name] = exampleOf(p);
  return out;
}
function exampleOf(p: APIParameter): unknown {
  if (p.global_default !== undefined && p.global_default !== '') {
    if (p.type === ParameterType.String) return p.global_default;
    try {
      return JSON.parse(p.global_default);
    } catch {
      return p.global_default;
    }
  }
  switch (p.type) {
    case ParameterType.Integer:
    case ParameterType.Number:
      return 0;
    case ParameterType.Bool:
      return false;
    case ParameterType.Object:
      return exampleInput(p.sub_parameters ?? []);
    case ParameterType.Array:
      return p.sub_parameters?.[0] ? [exampleOf(p.sub_parameters[0])] : [];
    default:
      return '';
  }
}
