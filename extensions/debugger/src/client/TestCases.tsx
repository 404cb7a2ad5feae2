// Saved inputs above a workflow's test run: pick a case to fill the form (the default one fills it when the panel
// opens), save what is typed as a case (a name used once), make one the default, delete one.
import { Button, Input, Popconfirm, Select, Space, Tag } from '@arco-design/web-react';
import type { TestRunInputSourceProps } from '@tessera/workflow-sdk/client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCases } from './store.ts';

const structured = (type: string) => type === 'object' || type === 'array';

export function TestCasePicker({ spaceId, workflowId, fields, values, onPick }: TestRunInputSourceProps) {
  const { t } = useTranslation('debugger');
  const c = useCases(spaceId, workflowId);
  const [picked, setPicked] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState('');
  const cases = c.list.data ?? [];
  /** A case's input as the form holds it (objects and arrays as JSON text). */
  const fill = (input: string) => {
    let v: Record<string, unknown> = {};
    try {
      v = JSON.parse(input) as Record<string, unknown>;
    } catch {
      return;
    }
    const out: Record<string, unknown> = {};
    for (const f of fields)
      if (f.name in v) out[f.name] = structured(f.type) ? JSON.stringify(v[f.name], null, 2) : v[f.name];
    onPick(out);
  };
  const filled = useRef(false);
  useEffect(() => {
    const d = cases.find((x) => x.caseBase.isDefault);
    if (filled.current || !d) return;
    filled.current = true;
    setPicked(d.caseBase.caseID);
    fill(d.caseBase.input);
    // Once, when the cases first arrive.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [cases]);
  const save = async () => {
    const check = await c.check(name);
    if (!check.isPass) return setProblem(check.failReason);
    const input: Record<string, unknown> = {};
    for (const f of fields) {
      const v = values[f.name];
      if (v === '' || v === undefined) continue;
      try {
        input[f.name] = structured(f.type) && typeof v === 'string' ? JSON.parse(v) : v;
      } catch {
        return setProblem(t('cases.badJson', { name: f.name }));
      }
    }
    setProblem('');
    c.save.mutate(
      { name, input: JSON.stringify(input) },
      { onSuccess: (r) => (setName(''), setPicked(r.caseDetail.caseBase.caseID)) },
    );
  };
  const current = cases.find((x) => x.caseBase.caseID === picked);
  return (
    <div
      data-testid="test-cases"
      style={{ marginBottom: 10, paddingBottom: 10, borderBottom: '1px solid var(--color-border-2)' }}
    >
      <Space wrap>
        <Select
          value={picked || undefined}
          placeholder={t('cases.pick')}
          onChange={(id: string) => {
            setPicked(id);
            const x = cases.find((y) => y.caseBase.caseID === id);
            if (x) fill(x.caseBase.input);
          }}
          style={{ width: 200 }}
          data-testid="test-case-select"
        >
          {cases.map((x) => (
            <Select.Option key={x.caseBase.caseID} value={x.caseBase.caseID}>
              {x.caseBase.name}
              {x.caseBase.isDefault ? ` · ${t('cases.default')}` : ''}
            </Select.Option>
          ))}
        </Select>
        {current && !current.caseBase.isDefault && (
          <Button
            size="mini"
            onClick={() => c.setDefault.mutate(current.caseBase.caseID)}
            data-testid="test-case-default"
          >
            {t('cases.makeDefault')}
          </Button>
        )}
        {current?.schemaIncompatible && <Tag color="orange">{t('cases.incompatible')}</Tag>}
        {current && (
          <Popconfirm title={t('deleteConfirm')} onOk={() => (c.remove.mutate(current.caseBase.caseID), setPicked(''))}>
            <Button size="mini" status="danger">
              {t('delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      <Space style={{ marginTop: 6 }}>
        <Input
          size="small"
          value={name}
          onChange={setName}
          placeholder={t('cases.name')}
          maxLength={100}
          data-testid="test-case-name"
        />
        <Button
          size="small"
          disabled={!name.trim()}
          loading={c.save.isPending}
          onClick={() => void save()}
          data-testid="test-case-save"
        >
          {t('cases.save')}
        </Button>
        <Button
          size="small"
          loading={c.generate.isPending}
          onClick={() => c.generate.mutate(3)}
          data-testid="test-case-generate"
        >
          {t('cases.generate')}
        </Button>
      </Space>
      {problem && <div style={{ color: 'rgb(var(--danger-6))', fontSize: 12, marginTop: 4 }}>{problem}</div>}
    </div>
  );
}
