// A prompt: its messages (normal {{name}} or Jinja-like templates, placeholders for message lists), model
// settings and tools, saved as edited; commit a version, see versions with their labels, compare one with
// the draft, revert, point a label; and the playground: fill the variables, run on a model (streamed), run
// two side by side (another version or model), see past runs.
import { describeError } from '@tessera/sdk';
import { Button, Empty, Input, InputNumber, Radio, Select, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeader, ResourceActionsBar, useApi, usePageTitle } from '@tessera/sdk/client';
import { ModelSelect } from '@tessera/ext-models/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { GetPrompt, SaveDraft } from '../shared/api.ts';
import { variablesOf, type PromptDetail, type PromptFull } from './api.ts';
import { useSpaceId } from './space.ts';
import { CommitModal, VersionsDrawer } from './Versions.tsx';
import { Playground } from './Playground.tsx';

const SAVE_AFTER_MS = 700;
type Save = 'saved' | 'pending' | 'saving' | 'failed';

export function EditorPage() {
  const { prompt_id: id = '' } = useParams();
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('prompts');
  const q = useQuery({
    queryKey: ['prompts', 'get', id],
    gcTime: 0,
    queryFn: () => api.call(GetPrompt, { prompt_id: id }, { handled: (e) => e.status === 404 }),
  });
  usePageTitle(q.data?.prompt.prompt_basic.display_name ?? t('title'));
  if (q.isError) return <Empty description={t('missing')} />;
  if (!q.data || !spaceId) return <Spin style={{ margin: 40 }} />;
  return <Editor key={id} prompt={q.data.prompt} spaceId={spaceId} />;
}

function Editor({ prompt, spaceId }: { prompt: PromptFull; spaceId: string }) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const qc = useQueryClient();
  const [detail, setDetail] = useState<PromptDetail>(prompt.prompt_draft.detail);
  const [save, setSave] = useState<Save>('saved');
  const [modified, setModified] = useState(prompt.prompt_draft.draft_info.is_modified);
  const [base, setBase] = useState(prompt.prompt_draft.draft_info.base_version);
  const latest = useRef(detail);
  const dirty = useRef(false);
  const promptId = prompt.id;
  const persist = async () => {
    if (!dirty.current) return;
    dirty.current = false;
    setSave('saving');
    try {
      await api.call(
        SaveDraft,
        { prompt_id: promptId, prompt_draft: { detail: latest.current } },
        { handled: () => true },
      );
      setSave(dirty.current ? 'pending' : 'saved');
      setModified(true);
    } catch {
      dirty.current = true;
      setSave('failed');
    }
  };
  const change = (d: PromptDetail) => {
    latest.current = d;
    dirty.current = true;
    setDetail(d);
    setSave('pending');
  };
  useEffect(() => {
    if (save !== 'pending') return;
    const timer = setTimeout(() => void persist(), SAVE_AFTER_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [detail, save]);
  // Leaving the page saves what is pending.
  useEffect(() => () => void persist(), []); // eslint-disable-line react-hooks/exhaustive-deps
  const tpl = detail.prompt_template;
  const setTpl = (patch: Partial<PromptDetail['prompt_template']>) =>
    change({ ...detail, prompt_template: { ...tpl, ...patch } });
  const setMessage = (i: number, patch: Partial<PromptDetail['prompt_template']['messages'][number]>) =>
    setTpl({ messages: tpl.messages.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  const [committing, setCommitting] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [toolsText, setToolsText] = useState(JSON.stringify(detail.tools, null, 2));
  const [toolsProblem, setToolsProblem] = useState('');
  const variables = useMemo(() => variablesOf(detail), [detail]);
  const reload = async () => {
    const r = await api.call(GetPrompt, { prompt_id: promptId });
    latest.current = r.prompt.prompt_draft.detail;
    setDetail(r.prompt.prompt_draft.detail);
    setToolsText(JSON.stringify(r.prompt.prompt_draft.detail.tools, null, 2));
    setBase(r.prompt.prompt_draft.draft_info.base_version);
    setModified(r.prompt.prompt_draft.draft_info.is_modified);
    await qc.invalidateQueries({ queryKey: ['prompts'] });
  };
  return (
    <div data-testid="prompt-editor">
      <PageHeader
        back={{ to: `/prompts?space_id=${spaceId}`, label: t('back') }}
        title={prompt.prompt_basic.display_name}
        extra={
          <>
            <Tag>{prompt.prompt_key}</Tag>
            {base ? (
              <Tag color={modified ? 'orange' : 'green'} data-testid="prompt-base">
                {modified ? t('changedSince', { version: base }) : base}
              </Tag>
            ) : (
              <Tag>{t('draftOnly')}</Tag>
            )}
            <Typography.Text
              type={save === 'failed' ? 'error' : 'secondary'}
              data-testid="prompt-save-state"
              data-state={save}
            >
              {t(`save.${save}`)}
            </Typography.Text>
          </>
        }
        actions={
          <>
            <ResourceActionsBar kind="prompt" spaceId={spaceId} resourceId={prompt.id} />
            <Button onClick={() => setVersionsOpen(true)} data-testid="prompt-versions">
              {t('versions')}
            </Button>
            <Button
              type="primary"
              onClick={async () => (await persist(), setCommitting(true))}
              data-testid="prompt-commit"
            >
              {t('commit')}
            </Button>
          </>
        }
      />
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <div style={{ flex: '1 1 480px', minWidth: 0 }}>
          <Space style={{ marginBottom: 8 }}>
            <Typography.Text>{t('templateType')}</Typography.Text>
            <Radio.Group
              type="button"
              size="small"
              value={tpl.template_type}
              onChange={(template_type) => setTpl({ template_type })}
            >
              <Radio value="normal">{'{{name}}'}</Radio>
              <Radio value="jinja2">Jinja2 / Liquid</Radio>
            </Radio.Group>
          </Space>
          {tpl.messages.map((m, i) => (
            <div
              key={i}
              style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 8, marginBottom: 8 }}
              data-testid="prompt-message"
            >
              <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 4 }}>
                <Select
                  size="small"
                  style={{ width: 140 }}
                  value={m.role}
                  onChange={(role) => setMessage(i, { role })}
                  data-testid="prompt-message-role"
                >
                  {(['system', 'user', 'assistant', 'placeholder'] as const).map((r) => (
                    <Select.Option key={r} value={r}>
                      {t(`roles.${r}`)}
                    </Select.Option>
                  ))}
                </Select>
                <Button
                  size="mini"
                  type="text"
                  icon={<IconDelete />}
                  aria-label={t('removeMessage')}
                  onClick={() => setTpl({ messages: tpl.messages.filter((_, j) => j !== i) })}
                />
              </Space>
              {m.role === 'placeholder' ? (
                <Input
                  size="small"
                  placeholder={t('placeholderName')}
                  value={m.content}
                  onChange={(content) => setMessage(i, { content })}
                />
              ) : (
                <Input.TextArea
                  value={m.content}
                  onChange={(content) => setMessage(i, { content })}
                  autoSize={{ minRows: 2, maxRows: 16 }}
                  placeholder={m.role === 'system' ? t('systemHint') : t('userHint')}
                  data-testid="prompt-message-content"
                />
              )}
            </div>
          ))}
          <Space style={{ marginBottom: 16 }}>
            <Button
              size="small"
              icon={<IconPlus />}
              onClick={() => setTpl({ messages: [...tpl.messages, { role: 'user', content: '' }] })}
              data-testid="prompt-add-message"
            >
              {t('addMessage')}
            </Button>
            <Button
              size="small"
              onClick={() => setTpl({ messages: [...tpl.messages, { role: 'placeholder', content: 'history' }] })}
            >
              {t('addPlaceholder')}
            </Button>
          </Space>
          <Typography.Title heading={6}>{t('model')}</Typography.Title>
          <Space wrap style={{ marginBottom: 16 }}>
            <ModelSelect
              spaceId={spaceId}
              value={detail.model_config.model_id}
              onChange={(model_id) => change({ ...detail, model_config: { ...detail.model_config, model_id } })}
              style={{ width: 320 }}
            />
            <InputNumber
              size="small"
              min={0}
              max={2}
              step={0.1}
              prefix={t('temperature')}
              value={detail.model_config.temperature}
              onChange={(temperature) =>
                change({ ...detail, model_config: { ...detail.model_config, temperature: temperature ?? undefined } })
              }
              style={{ width: 170 }}
            />
            <InputNumber
              size="small"
              min={1}
              prefix={t('maxTokens')}
              value={detail.model_config.max_tokens}
              onChange={(max_tokens) =>
                change({ ...detail, model_config: { ...detail.model_config, max_tokens: max_tokens ?? undefined } })
              }
              style={{ width: 190 }}
            />
          </Space>
          <Typography.Title heading={6}>{t('tools')}</Typography.Title>
          <Input.TextArea
            value={toolsText}
            onChange={(v) => (setToolsText(v), setToolsProblem(''))}
            onBlur={() => {
              try {
                const tools = JSON.parse(toolsText || '[]');
                if (!Array.isArray(tools)) throw new Error(t('toolsNotList'));
                change({ ...detail, tools });
              } catch (e) {
                setToolsProblem(describeError(e));
              }
            }}
            autoSize={{ minRows: 2, maxRows: 10 }}
            style={{ fontFamily: 'monospace', fontSize: 12 }}
          />
          {toolsProblem && <Typography.Text type="error">{toolsProblem}</Typography.Text>}
        </div>
        <div style={{ flex: '1 1 420px', minWidth: 0 }}>
          <Playground spaceId={spaceId} promptId={prompt.id} detail={detail} variables={variables} />
        </div>
      </div>
      {committing && (
        <CommitModal
          promptId={promptId}
          latest={prompt.prompt_basic.latest_version}
          noModel={!detail.model_config.model_id}
          onClose={() => setCommitting(false)}
          onDone={reload}
        />
      )}
      <VersionsDrawer
        promptId={promptId}
        visible={versionsOpen}
        draft={detail}
        onClose={() => setVersionsOpen(false)}
        onReverted={reload}
      />
    </div>
  );
}
