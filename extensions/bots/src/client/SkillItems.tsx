// The shape most skill panels take: the things the bot uses, each removable, and a searchable list to
// add more from (workflows, plugin APIs, MCP tools ...).
import { Button, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete } from '@arco-design/web-react/icon';

export interface SkillOption {
  key: string;
  label: string;
  description?: string;
}

export interface SkillItemsProps {
  /** Keys of the chosen items, in order. */
  chosen: string[];
  /** What can be chosen (the chosen ones among them give their labels). */
  options: SkillOption[];
  /** The label of a chosen item no longer among the options (a name kept when it was added). */
  fallbackLabel?(key: string): string;
  onAdd(option: SkillOption): void;
  onRemove(key: string): void;
  loading?: boolean;
  max: number;
  /** Texts: the add placeholder, the remove button's label, what shows when there is nothing to add. */
  texts: { add: string; remove: string; none: string };
  /** data-testid prefix: `${testId}s` wraps, `${testId}` each row, `${testId}-add` the select. */
  testId: string;
}

export function SkillItems({
  chosen,
  options,
  fallbackLabel,
  onAdd,
  onRemove,
  loading,
  max,
  texts,
  testId,
}: SkillItemsProps) {
  const taken = new Set(chosen);
  const labelOf = (key: string) => options.find((o) => o.key === key)?.label ?? fallbackLabel?.(key) ?? key;
  return (
    <div data-testid={`${testId}s`}>
      <Space direction="vertical" style={{ width: '100%' }} size={4}>
        {chosen.map((key) => (
          <Space key={key} style={{ width: '100%', justifyContent: 'space-between' }} data-testid={testId}>
            <Typography.Text>{labelOf(key)}</Typography.Text>
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={texts.remove}
              onClick={() => onRemove(key)}
            />
          </Space>
        ))}
        <Select
          size="small"
          placeholder={texts.add}
          value={undefined}
          loading={loading}
          notFoundContent={texts.none}
          showSearch
          filterOption={(input, option) =>
            String((option as { props?: { extra?: string } })?.props?.extra ?? '')
              .toLowerCase()
              .includes(input.toLowerCase())
          }
          onChange={(key: string) => {
            const o = options.find((x) => x.key === key);
            if (o) onAdd(o);
          }}
          disabled={chosen.length >= max}
          data-testid={`${testId}-add`}
        >
          {options
            .filter((o) => !taken.has(o.key))
            .map((o) => (
              <Select.Option key={o.key} value={o.key} extra={o.label}>
                {o.label}
                {o.description && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {' '}
                    · {o.description}
                  </Typography.Text>
                )}
              </Select.Option>
            ))}
        </Select>
      </Space>
    </div>
  );
}
