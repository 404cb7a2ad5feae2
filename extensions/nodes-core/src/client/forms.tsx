// Settings forms of the core node types in the workflow editor.
import { Button, Input, Radio, Select, Space, Switch, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { ConditionType, type FieldDecl } from '@tessera/ext-workflow/shared';
import { FieldProblem, type NodeFormProps } from '@tessera/ext-workflow/client';
import { FieldsEditor, TemplateInput } from '@tessera/ext-workflow/widgets';
import { useTranslation } from 'react-i18next';
import { UNARY, type Branch, type Condition } from './summary.ts';

/** If: branches of conditions over the node's inputs; the first branch that holds is taken, else "else". */
export function IfForm({ node, onSettings }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const branches = (node.node_param.settings as { branches?: Branch[] }).branches ?? [];
  const inputs = node.node_param.inputs.map((i) => i.name);
  const set = (next: Branch[]) => onSettings({ ...node.node_param.settings, branches: next });
  const setBranch = (bi: number, b: Branch) => set(branches.map((x, i) => (i === bi ? b : x)));
  const newCondition = (): Condition => ({
    left: inputs[0] ?? '',
    operator: ConditionType.Equal,
    right: { literal: '' },
  });
  return (
    <div data-testid="if-form">
      {!inputs.length && <Typography.Paragraph type="secondary">{t('if.needInputs')}</Typography.Paragraph>}
      {branches.map((b, bi) => (
        <div
          key={bi}
          data-testid={`if-branch-${bi}`}
          style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 8, marginBottom: 8 }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <strong>{bi === 0 ? t('if.if') : t('if.elseIf', { n: bi })}</strong>
            <Space size={4}>
              {b.conditions.length > 1 && (
                <Radio.Group
                  size="mini"
                  type="button"
                  value={b.logic}
                  onChange={(logic) => setBranch(bi, { ...b, logic })}
                >
                  <Radio value={1}>{t('if.and')}</Radio>
                  <Radio value={2}>{t('if.or')}</Radio>
                </Radio.Group>
              )}
              {branches.length > 1 && (
                <Button
                  size="mini"
                  type="text"
                  icon={<IconDelete />}
                  aria-label={t('remove')}
                  onClick={() => set(branches.filter((_, i) => i !== bi))}
                />
              )}
            </Space>
          </Space>
          {b.conditions.map((c, ci) => {
            const setCond = (patch: Partial<Condition>) =>
              setBranch(bi, { ...b, conditions: b.conditions.map((x, i) => (i === ci ? { ...x, ...patch } : x)) });
            const right =
              c.right && 'input' in c.right
                ? { kind: 'input', value: c.right.input }
                : { kind: 'literal', value: String((c.right as { literal?: unknown } | undefined)?.literal ?? '') };
            return (
              <Space key={ci} size={4} wrap style={{ marginTop: 6 }} data-testid={`if-condition-${bi}-${ci}`}>
                <Select
                  size="small"
                  style={{ width: 100 }}
                  value={c.left || undefined}
                  placeholder={t('if.input')}
                  onChange={(left) => setCond({ left })}
                  options={inputs}
                  data-testid="if-left"
                />
                <Select
                  size="small"
                  style={{ width: 130 }}
                  value={c.operator}
                  onChange={(operator) =>
                    setCond({
                      operator,
                      ...(UNARY.has(operator) ? { right: undefined } : { right: c.right ?? { literal: '' } }),
                    })
                  }
                  data-testid="if-operator"
                >
                  {Object.values(ConditionType).map((op) => (
                    <Select.Option key={op} value={op}>
                      {t(`if.op.${op}`)}
                    </Select.Option>
                  ))}
                </Select>
                {!UNARY.has(c.operator) && (
                  <>
                    <Select
                      size="small"
                      style={{ width: 80 }}
                      value={right.kind}
                      onChange={(kind) =>
                        setCond({ right: kind === 'input' ? { input: inputs[0] ?? '' } : { literal: '' } })
                      }
                    >
                      <Select.Option value="literal">{t('if.value')}</Select.Option>
                      <Select.Option value="input">{t('if.input')}</Select.Option>
                    </Select>
                    {right.kind === 'input' ? (
                      <Select
                        size="small"
                        style={{ width: 100 }}
                        value={right.value || undefined}
                        onChange={(input) => setCond({ right: { input } })}
                        options={inputs}
                      />
                    ) : (
                      <Input
                        size="small"
                        style={{ width: 100 }}
                        value={right.value}
                        onChange={(literal) => setCond({ right: { literal } })}
                        data-testid="if-right"
                      />
                    )}
                  </>
                )}
                {b.conditions.length > 1 && (
                  <Button
                    size="mini"
                    type="text"
                    icon={<IconDelete />}
                    aria-label={t('remove')}
                    onClick={() => setBranch(bi, { ...b, conditions: b.conditions.filter((_, i) => i !== ci) })}
                  />
                )}
              </Space>
            );
          })}
          <div>
            <Button
              size="mini"
              type="text"
              icon={<IconPlus />}
              onClick={() => setBranch(bi, { ...b, conditions: [...b.conditions, newCondition()] })}
              data-testid="if-add-condition"
            >
              {t('if.addCondition')}
            </Button>
          </div>
        </div>
      ))}
      <Button
        size="mini"
        icon={<IconPlus />}
        onClick={() => set([...branches, { logic: 1, conditions: [newCondition()] }])}
        data-testid="if-add-branch"
      >
        {t('if.addBranch')}
      </Button>
      <Typography.Paragraph type="secondary" style={{ marginTop: 6, fontSize: 12 }}>
        {t('if.else')}
      </Typography.Paragraph>
    </div>
  );
}

/** Question: the question (a template), the answer type, and fixed options (one branch each). */
export function QuestionForm({ node, onSettings, upstream, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const s = node.node_param.settings as {
    question?: string;
    answer_type?: 'text' | 'option';
    options?: string[];
    options_from?: string;
  };
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  const options = s.options ?? [];
  return (
    <div data-testid="question-form">
      <TemplateInput
        value={s.question ?? ''}
        placeholder={t('question.question')}
        node={node}
        upstream={upstream}
        onChange={(question) => set({ question })}
        testId="question-text"
        error={!!problems['settings.question']}
      />
      <FieldProblem message={problems['settings.question']} />
      <Radio.Group
        type="button"
        size="small"
        style={{ margin: '8px 0' }}
        value={s.answer_type ?? 'text'}
        onChange={(answer_type) =>
          set({
            answer_type,
            ...(answer_type === 'option' && !options.length ? { options: [t('question.option', { n: 1 })] } : {}),
          })
        }
        data-testid="question-type"
      >
        <Radio value="text">{t('question.text')}</Radio>
        <Radio value="option">{t('question.options')}</Radio>
      </Radio.Group>
      {s.answer_type === 'option' && (
        <Space size={4} style={{ marginBottom: 6 }}>
          <span style={{ fontSize: 12 }}>{t('question.optionsFrom')}</span>
          <Select
            size="small"
            allowClear
            style={{ width: 150 }}
            placeholder={t('question.fixed')}
            value={s.options_from || undefined}
            onChange={(v?: string) => set({ options_from: v || undefined })}
            options={node.node_param.inputs.map((i) => i.name)}
            data-testid="question-options-from"
          />
        </Space>
      )}
      {s.answer_type === 'option' && !s.options_from && (
        <div data-testid="question-options">
          {options.map((o, i) => (
            <Space key={i} size={4} style={{ marginBottom: 4 }}>
              <Input
                size="small"
                value={o}
                onChange={(v) => set({ options: options.map((x, j) => (j === i ? v : x)) })}
                data-testid={`question-option-${i}`}
              />
              <Button
                size="mini"
                type="text"
                icon={<IconDelete />}
                aria-label={t('remove')}
                onClick={() => set({ options: options.filter((_, j) => j !== i) })}
              />
            </Space>
          ))}
          <Button
            size="mini"
            type="text"
            icon={<IconPlus />}
            onClick={() => set({ options: [...options, t('question.option', { n: options.length + 1 })] })}
            data-testid="question-add-option"
          >
            {t('question.addOption')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** Text: join with a {{template}}, or split by separators. */
export function TextForm({ node, onSettings, upstream, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const s = node.node_param.settings as { mode?: 'concat' | 'split'; template?: string; separators?: string[] };
  const mode = s.mode ?? 'concat';
  return (
    <div data-testid="text-form">
      <Radio.Group
        type="button"
        size="small"
        value={mode}
        onChange={(m) =>
          onSettings(
            m === 'split'
              ? { mode: 'split', separators: s.separators ?? [','] }
              : { mode: 'concat', template: s.template ?? '' },
          )
        }
        style={{ marginBottom: 8 }}
      >
        <Radio value="concat">{t('text.concat')}</Radio>
        <Radio value="split">{t('text.split')}</Radio>
      </Radio.Group>
      {mode === 'concat' ? (
        <TemplateInput
          value={s.template ?? ''}
          placeholder={t('text.template')}
          node={node}
          upstream={upstream}
          onChange={(template) => onSettings({ mode: 'concat', template })}
          testId="text-template"
        />
      ) : (
        <Input
          value={(s.separators ?? []).join(' ')}
          placeholder={t('text.separators')}
          onChange={(v) => onSettings({ mode: 'split', separators: v.split(' ').filter(Boolean) })}
          data-testid="text-separators"
        />
      )}
      <FieldProblem message={problems['settings.template'] ?? problems['settings.separators']} />
    </div>
  );
}

/** End: return the bound inputs as variables, or answer with a {{template}} (streamed to stream runs). */
export function EndForm({ node, onSettings, upstream, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const s = node.node_param.settings as {
    terminate_plan?: 'return_variables' | 'use_answer_content';
    answer?: string;
    streaming?: boolean;
  };
  const plan = s.terminate_plan ?? 'return_variables';
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  return (
    <div data-testid="end-form">
      <Radio.Group
        type="button"
        size="small"
        value={plan}
        onChange={(terminate_plan) => set({ terminate_plan })}
        data-testid="end-plan"
        style={{ marginBottom: 8 }}
      >
        <Radio value="return_variables">{t('end.variables')}</Radio>
        <Radio value="use_answer_content">{t('end.answer')}</Radio>
      </Radio.Group>
      {plan === 'return_variables' ? (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: 0 }}>
          {t('end.variablesHint')}
        </Typography.Paragraph>
      ) : (
        <>
          <TemplateInput
            value={s.answer ?? ''}
            placeholder={t('end.answerPlaceholder')}
            node={node}
            upstream={upstream}
            onChange={(answer) => set({ answer })}
            testId="end-answer"
            error={!!problems['settings.answer']}
          />
          <FieldProblem message={problems['settings.answer']} />
          <Space style={{ marginTop: 8 }}>
            <Switch
              size="small"
              checked={s.streaming !== false}
              onChange={(streaming) => set({ streaming })}
              data-testid="end-streaming"
            />
            <span style={{ fontSize: 12 }}>{t('streaming')}</span>
          </Space>
        </>
      )}
    </div>
  );
}

/** Message: a {{template}} sent to the caller while the run goes on. */
export function MessageForm({ node, onSettings, upstream, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const s = node.node_param.settings as { template?: string; streaming?: boolean };
  return (
    <div data-testid="message-form">
      <TemplateInput
        value={s.template ?? ''}
        placeholder={t('message.template')}
        node={node}
        upstream={upstream}
        onChange={(template) => onSettings({ ...s, template })}
        testId="message-template"
        error={!!problems['settings.template']}
      />
      <FieldProblem message={problems['settings.template']} />
      <Space style={{ marginTop: 8 }}>
        <Switch
          size="small"
          checked={s.streaming !== false}
          onChange={(streaming) => onSettings({ ...s, streaming })}
          data-testid="message-streaming"
        />
        <span style={{ fontSize: 12 }}>{t('streaming')}</span>
      </Space>
    </div>
  );
}

/** Input: a prompt and the fields of the form the caller fills in (the node's outputs). */
export function InputForm({ node, onSettings, upstream, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const s = node.node_param.settings as { prompt?: string; fields?: FieldDecl[] };
  return (
    <div data-testid="input-form">
      <TemplateInput
        value={s.prompt ?? ''}
        placeholder={t('input.prompt')}
        node={node}
        upstream={upstream}
        onChange={(prompt) => onSettings({ ...s, prompt })}
        testId="input-prompt"
      />
      <Typography.Text style={{ display: 'block', margin: '8px 0 4px', fontSize: 12 }}>
        {t('input.fields')}
      </Typography.Text>
      <FieldsEditor
        fields={s.fields ?? []}
        onChange={(fields) => onSettings({ ...s, fields })}
        testId="input-field"
        withRequired
        problemOf={(i) => problems[`settings.fields.${i}.name`]}
      />
      <FieldProblem message={problems['settings.fields']} />
    </div>
  );
}

interface Group {
  name: string;
  variables: string[];
}
/** Variable aggregator: per group, the first of its inputs that has a value. */
export function AggregatorForm({ node, onSettings, problems }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const groups = (node.node_param.settings as { groups?: Group[] }).groups ?? [];
  const inputs = node.node_param.inputs.map((i) => i.name);
  const set = (next: Group[]) => onSettings({ ...node.node_param.settings, groups: next });
  return (
    <div data-testid="aggregator-form">
      {!inputs.length && <Typography.Paragraph type="secondary">{t('if.needInputs')}</Typography.Paragraph>}
      {groups.map((g, i) => (
        <div key={i} style={{ marginBottom: 8 }} data-testid={`aggregator-group-${i}`}>
          <Space size={4}>
            <Input
              size="small"
              style={{ width: 110 }}
              value={g.name}
              status={problems[`settings.groups.${i}.name`] ? 'error' : undefined}
              onChange={(name) => set(groups.map((x, j) => (j === i ? { ...x, name } : x)))}
              data-testid={`aggregator-name-${i}`}
            />
            <Select
              size="small"
              mode="multiple"
              style={{ width: 180 }}
              placeholder={t('aggregator.variables')}
              value={g.variables}
              onChange={(variables: string[]) => set(groups.map((x, j) => (j === i ? { ...x, variables } : x)))}
              options={inputs}
              data-testid={`aggregator-variables-${i}`}
            />
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('remove')}
              onClick={() => set(groups.filter((_, j) => j !== i))}
            />
          </Space>
          <FieldProblem message={problems[`settings.groups.${i}.name`] ?? problems[`settings.groups.${i}.variables`]} />
        </div>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => set([...groups, { name: `group${groups.length + 1}`, variables: inputs.slice(0, 2) }])}
        data-testid="aggregator-add"
      >
        {t('aggregator.add')}
      </Button>
      <FieldProblem message={problems['settings.groups']} />
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
        {t('aggregator.hint')}
      </Typography.Paragraph>
    </div>
  );
}

/** Assign variable: the scope; each input names a variable. */
export function AssignForm({ node, onSettings }: NodeFormProps) {
  const { t } = useTranslation('nodes-core');
  const s = node.node_param.settings as { scope?: 'app' | 'user' };
  return (
    <div data-testid="assign-form">
      <Radio.Group
        type="button"
        size="small"
        value={s.scope ?? 'user'}
        onChange={(scope) => onSettings({ ...s, scope })}
        data-testid="assign-scope"
      >
        <Radio value="user">{t('assign.user')}</Radio>
        <Radio value="app">{t('assign.app')}</Radio>
      </Radio.Group>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
        {t('assign.hint')}
      </Typography.Paragraph>
    </div>
  );
}
