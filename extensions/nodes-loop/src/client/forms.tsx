// Settings forms of Loop and Batch in the workflow editor, and the hints of the body-only nodes.
import { Button, Input, InputNumber, Radio, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { FieldProblem, type NodeFormProps, type UpstreamOutput } from '@tessera/ext-workflow/client';
import { useTranslation } from 'react-i18next';

interface Collect {
  name: string;
  node_id: string;
  path: string[];
}

/** Outputs: per iteration, the value of a body node's output, collected into an array. */
function CollectEditor({
  collect,
  body,
  onChange,
  problems,
}: {
  collect: Collect[];
  body: UpstreamOutput[];
  onChange(c: Collect[]): void;
  problems: Record<string, string>;
}) {
  const { t } = useTranslation('nodes-loop');
  const set = (i: number, patch: Partial<Collect>) =>
    onChange(collect.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div data-testid="loop-collect">
      <Typography.Text style={{ display: 'block', fontSize: 12, margin: '8px 0 4px' }}>{t('collect')}</Typography.Text>
      {!body.length && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('emptyBody')}
        </Typography.Paragraph>
      )}
      {collect.map((c, i) => (
        <div key={i} style={{ marginBottom: 6 }}>
          <Space size={4}>
            <Input
              size="small"
              style={{ width: 100 }}
              value={c.name}
              status={problems[`settings.collect.${i}.name`] ? 'error' : undefined}
              onChange={(name) => set(i, { name })}
              data-testid={`collect-${i}-name`}
            />
            <Select
              size="small"
              style={{ width: 190 }}
              placeholder={t('pickBodyOutput')}
              value={c.node_id ? [c.node_id, ...c.path].join('.') : undefined}
              onChange={(key: string) => {
                const [node_id, ...path] = key.split('.');
                set(i, { node_id, path });
              }}
              data-testid={`collect-${i}-source`}
            >
              {body.map((b) => (
                <Select.Option key={`${b.node_id}.${b.field.name}`} value={`${b.node_id}.${b.field.name}`}>
                  {`${b.node_title} · ${b.field.name}`}
                </Select.Option>
              ))}
            </Select>
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('remove')}
              onClick={() => onChange(collect.filter((_, j) => j !== i))}
            />
          </Space>
          <FieldProblem message={problems[`settings.collect.${i}.name`] ?? problems[`settings.collect.${i}.node_id`]} />
        </div>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() =>
          onChange([
            ...collect,
            {
              name: `results${collect.length ? collect.length + 1 : ''}`,
              node_id: body[0]?.node_id ?? '',
              path: body[0] ? [body[0].field.name] : [],
            },
          ])
        }
        data-testid="collect-add"
      >
        {t('addCollect')}
      </Button>
    </div>
  );
}

type LoopType = 'array' | 'count' | 'infinite';
/** Loop: over the input `items`, `count` times, or until Break; loop variables; collected outputs. */
export function LoopForm({ node, onSettings, body, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-loop');
  const s = node.node_param.settings as {
    loop_type?: LoopType;
    max_iterations?: number;
    variables?: string[];
    collect?: Collect[];
  };
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  const type = s.loop_type ?? 'array';
  const needs = type === 'array' ? 'items' : type === 'count' ? 'count' : undefined;
  const vars = s.variables ?? [];
  return (
    <div data-testid="loop-form">
      <Radio.Group
        type="button"
        size="small"
        value={type}
        onChange={(loop_type) => set({ loop_type })}
        data-testid="loop-type"
      >
        <Radio value="array">{t('array')}</Radio>
        <Radio value="count">{t('count')}</Radio>
        <Radio value="infinite">{t('infinite')}</Radio>
      </Radio.Group>
      <Typography.Paragraph
        type={needs && !node.node_param.inputs.some((i) => i.name === needs) ? 'warning' : 'secondary'}
        style={{ fontSize: 12, margin: '6px 0' }}
        data-testid="loop-needs"
      >
        {needs ? t('needsInput', { name: needs }) : t('untilBreak')}
      </Typography.Paragraph>
      <Space size={4}>
        <span style={{ fontSize: 12 }}>{t('maxIterations')}</span>
        <InputNumber
          size="small"
          style={{ width: 110 }}
          min={1}
          max={100000}
          value={s.max_iterations ?? 1000}
          onChange={(v) => set({ max_iterations: v ?? 1000 })}
          data-testid="loop-max"
        />
      </Space>
      <Typography.Text style={{ display: 'block', fontSize: 12, margin: '8px 0 4px' }}>
        {t('variables')}
      </Typography.Text>
      {vars.map((v, i) => (
        <Space key={i} size={4} style={{ marginBottom: 4 }}>
          <Input
            size="small"
            style={{ width: 140 }}
            value={v}
            status={problems[`settings.variables.${i}`] ? 'error' : undefined}
            onChange={(name) => set({ variables: vars.map((x, j) => (j === i ? name : x)) })}
            data-testid={`loop-variable-${i}`}
          />
          <Button
            size="mini"
            type="text"
            icon={<IconDelete />}
            aria-label={t('remove')}
            onClick={() => set({ variables: vars.filter((_, j) => j !== i) })}
          />
        </Space>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => set({ variables: [...vars, `var${vars.length + 1}`] })}
        data-testid="loop-variable-add"
      >
        {t('addVariable')}
      </Button>
      {vars.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: 0 }}>
          {t('variablesHint')}
        </Typography.Paragraph>
      )}
      <CollectEditor
        collect={s.collect ?? []}
        body={body}
        onChange={(collect) => set({ collect })}
        problems={problems}
      />
    </div>
  );
}

/** Batch: the body once per item of `items`, several at a time. */
export function BatchForm({ node, onSettings, body, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-loop');
  const s = node.node_param.settings as { concurrency?: number; max_items?: number; collect?: Collect[] };
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  return (
    <div data-testid="batch-form">
      <Typography.Paragraph
        type={node.node_param.inputs.some((i) => i.name === 'items') ? 'secondary' : 'warning'}
        style={{ fontSize: 12, margin: '0 0 6px' }}
      >
        {t('needsInput', { name: 'items' })}
      </Typography.Paragraph>
      <Space size={4} direction="vertical">
        <Space size={4}>
          <span style={{ fontSize: 12, width: 110, display: 'inline-block' }}>{t('concurrency')}</span>
          <InputNumber
            size="small"
            style={{ width: 100 }}
            min={1}
            max={50}
            value={s.concurrency ?? 4}
            onChange={(v) => set({ concurrency: v ?? 4 })}
            data-testid="batch-concurrency"
          />
        </Space>
        <Space size={4}>
          <span style={{ fontSize: 12, width: 110, display: 'inline-block' }}>{t('maxItems')}</span>
          <InputNumber
            size="small"
            style={{ width: 100 }}
            min={1}
            max={10000}
            value={s.max_items ?? 100}
            onChange={(v) => set({ max_items: v ?? 100 })}
            data-testid="batch-max"
          />
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="batch-max-hint">
          {t('maxItemsHint', { max: s.max_items ?? 100 })}
        </Typography.Text>
      </Space>
      <CollectEditor
        collect={s.collect ?? []}
        body={body}
        onChange={(collect) => set({ collect })}
        problems={problems}
      />
    </div>
  );
}
